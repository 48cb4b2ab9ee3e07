package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stacks of its own (not the shared one): what is started is stopped, on close and on a failed start. */
class LocalStackLifecycleIT {
  @TempDir
  Path dir;

  @Test
  void closeStopsEveryProcessTheStackStarted() throws Exception {
    LocalStack stack = LocalStack.builder().runDir(dir.resolve("run")).temporalUiPort(0)
        .searchAttributes(List.of("FarrierPhase")).start();
    List<ProcessHandle> tree = stack.processTree();
    assertEquals(List.of("temporal", "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"),
        List.copyOf(stack.processes().keySet()));
    assertTrue(tree.size() >= 7, "six components and the watchdog: " + tree);
    assertTrue(tree.stream().allMatch(ProcessHandle::isAlive));

    stack.close();
    stack.close();

    assertTrue(tree.stream().noneMatch(ProcessHandle::isAlive), "still alive: " + ProcessAwait.alive(tree));
    assertTrue(stack.processes().isEmpty());
    assertTrue(Files.exists(dir.resolve("run/logs/kube-apiserver.log")), "logs stay for a look afterwards");
  }

  @Test
  void aJvmKilledWithSigkillLeavesNothingRunning() throws Exception {
    Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(javaBinary.toString(), "-cp", System.getProperty("java.class.path"),
        HeldStackMain.class.getName(), dir.resolve("held").toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.PIPE)
        .start();
    List<ProcessHandle> started;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
      String line;
      do {
        line = lines.readLine();
      } while (line != null && !line.startsWith("READY "));
      assertTrue(line != null, "the child JVM exited before its stack was ready; see " + dir.resolve("held/logs"));
      started = Arrays.stream(line.substring("READY ".length()).trim().split(" "))
          .map(Long::parseLong).map(ProcessHandle::of).flatMap(Optional::stream).toList();
      assertTrue(started.size() >= 2, "temporal and the watchdog: " + line);

      child.destroyForcibly().waitFor();

      assertTrue(ProcessAwait.allExited(started, Duration.ofSeconds(30)), "survived: " + ProcessAwait.alive(started));
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void aComponentThatFailsToStartIsReportedWithItsLogAndNothingIsLeftRunning() throws Exception {
    Path binDir = dir.resolve("bin");
    Files.createDirectories(binDir);
    for (String name : List.of("etcd", "kube-controller-manager", "kube-scheduler", "kwok")) {
      executable(binDir.resolve(name), "exec " + LocalStack.defaultBinDir().resolve(name) + " \"$@\"");
    }
    executable(binDir.resolve("kube-apiserver"), "echo 'Error: unknown flag --simulated-failure' >&2; exit 3");
    Path runDir = dir.resolve("failing");

    LocalStackException failure = assertThrows(LocalStackException.class,
        () -> LocalStack.builder().temporal(false).runDir(runDir).binDir(binDir).start());

    assertEquals("kube-apiserver", failure.component());
    assertTrue(failure.getMessage().contains("exited with code 3"), failure.getMessage());
    assertTrue(failure.getMessage().contains("unknown flag --simulated-failure"), failure.getMessage());
    List<ProcessHandle> leftovers = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(runDir.toString()))
        .toList();
    assertTrue(ProcessAwait.allExited(leftovers, Duration.ofSeconds(5)), "left running: " + ProcessAwait.alive(leftovers));
  }

  private static void executable(Path file, String script) throws Exception {
    Files.writeString(file, "#!/bin/sh\n" + script + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /**
   * The chaos soak's faults: an API server killed and started again keeps its objects; a paused component is frozen;
   * a process started beside the stack and adopted (a worker) ends with the stack.
   */
  @Test
  void aKilledApiServerComesBackWithItsObjectsAndAPausedComponentIsFrozenUntilResumed() throws Exception {
    Process beside = new ProcessBuilder("sleep", "600").start();
    try (LocalStack stack = LocalStack.builder().temporal(false).runDir(dir.resolve("faults")).start();
        var kube = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
            .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build()) {
      kube.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("before-the-crash")
          .endMetadata().build()).create();
      long oldPid = stack.processes().get(LocalStack.API_SERVER);

      stack.kill(LocalStack.API_SERVER);
      assertTrue(ProcessHandle.of(oldPid).map(p -> !p.isAlive()).orElse(true), "the API server is gone");
      assertThrows(IllegalStateException.class, () -> stack.pause(LocalStack.API_SERVER), "nothing to pause");
      stack.startAgain(LocalStack.API_SERVER);

      assertTrue(stack.processes().get(LocalStack.API_SERVER) != oldPid);
      assertTrue(kube.namespaces().withName("before-the-crash").get() != null, "etcd kept what the old API server stored");
      assertThrows(IllegalStateException.class, () -> stack.startAgain(LocalStack.API_SERVER), "it already runs");
      assertThrows(IllegalArgumentException.class, () -> stack.startAgain(LocalStack.KWOK), "kwok is not started again");

      long kwok = stack.processes().get(LocalStack.KWOK);
      stack.pause(LocalStack.KWOK);
      assertEquals("T", processState(kwok), "SIGSTOP froze kwok");
      stack.resume(LocalStack.KWOK);
      assertTrue(!"T".equals(processState(kwok)), "SIGCONT thawed kwok");
      stack.adopt(beside.pid());
    } finally {
      assertTrue(beside.waitFor(15, java.util.concurrent.TimeUnit.SECONDS), "a process adopted by the stack ends with it");
      beside.destroyForcibly();
    }
  }

  /** The state letter of /proc/PID/stat (R running, S sleeping, T stopped). */
  private static String processState(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  }

  @Test
  void aProcessStartedBesideTheStackGetsItsEnvironmentAndStopsWithIt() throws Exception {
    try (LocalStack stack = LocalStack.builder().temporal(false).kubernetes(false).moto(true).runDir(dir.resolve("beside")).start()) {
      int port = stack.freePort();
      // A server that answers with the value of an environment variable it was given.
      String server = "import http.server,os\n"
          + "class H(http.server.BaseHTTPRequestHandler):\n"
          + "  def do_GET(self):\n"
          + "    body=os.environ['PEER_GREETING'].encode(); self.send_response(200); self.end_headers(); self.wfile.write(body)\n"
          + "http.server.HTTPServer(('127.0.0.1', int(os.environ['PEER_PORT'])), H).serve_forever()\n";
      URI ready = URI.create("http://127.0.0.1:" + port + "/readyz");
      long pid = stack.startProcess("peer", List.of("python3", "-c", server),
          Map.of("PEER_PORT", Integer.toString(port), "PEER_GREETING", "hello from the environment"), ready);

      assertEquals(pid, stack.processes().get("peer"));
      var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals("hello from the environment", response.body());
      assertThrows(IllegalArgumentException.class,
          () -> stack.startProcess("peer", List.of("true"), Map.of(), ready), "one process per name");
      ProcessHandle peer = ProcessHandle.of(pid).orElseThrow();

      stack.close();

      assertTrue(ProcessAwait.allExited(List.of(peer), Duration.ofSeconds(10)), "the stack stops what it started beside it");
    }
  }

  @Test
  void aProcessBesideTheStackThatExitsIsReportedWithItsLog() throws Exception {
    try (LocalStack stack = LocalStack.builder().temporal(false).kubernetes(false).moto(true).runDir(dir.resolve("exits")).start()) {
      LocalStackException failure = assertThrows(LocalStackException.class, () -> stack.startProcess("peer",
          List.of("sh", "-c", "echo \"unknown flag: --kubeconfig\" >&2; exit 2"), Map.of(),
          URI.create("http://127.0.0.1:" + stack.freePort() + "/readyz")));

      assertEquals("peer", failure.component());
      assertTrue(failure.getMessage().contains("exited with code 2"), failure.getMessage());
      assertTrue(failure.getMessage().contains("unknown flag: --kubeconfig"), failure.getMessage());
    }
  }

  @Test
  void aBusyTemporalUiPortFailsBeforeAnythingStarts() throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      LocalStackException failure = assertThrows(LocalStackException.class, () -> LocalStack.builder()
          .kubernetes(false).runDir(dir.resolve("busy")).temporalUiPort(busy.getLocalPort()).start());

      assertEquals("temporal", failure.component());
      assertTrue(failure.getMessage().contains("UI port " + busy.getLocalPort()), failure.getMessage());
      assertTrue(Files.notExists(dir.resolve("busy/logs/temporal.log")), "nothing was started");
    }
  }
}
