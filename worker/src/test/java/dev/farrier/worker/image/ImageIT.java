package dev.farrier.worker.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's container image (worker/target/farrier-worker-image.tar, built by Jib before the integration tests) as
 * Kubernetes would run it: its config (user 65532, the java entrypoint with the project's JVM flags, the ports), its
 * layers (production code only), and its entrypoint run in the unpacked image as user 65532 with nothing writable
 * but /tmp ({@link ContainerRun}: no container engine).
 */
class ImageIT {
  private static final Path TARBALL = Path.of(System.getProperty("farrier.image.tar", "target/farrier-worker-image.tar"));
  private static final String MAIN_CLASS = "dev.farrier.worker.WorkerMain";
  /** What a worker image must not carry: test code, the sandbox, the local stack, the simulated cloud and its catalogue. */
  private static final List<String> NOT_FOR_PRODUCTION = List.of("dev/farrier/sandbox/", "dev/farrier/worker/sandbox/",
      "dev/farrier/localstack/", "farrier-localstack", "farrier-sandbox", "farrier-cloud-simulated", "farrier-catalog",
      "dev/farrier/activities/cloud/simulated/", "dev/farrier/catalog/", "junit", "-tests.jar", "test-classes/");
  /** A bound on waiting for the worker, not a measure of it: a healthy start takes seconds. */
  private static final Duration START_BOUND = Duration.ofMinutes(2);

  @TempDir
  static Path work;
  private static Path root;
  private static JsonNode config;
  private static List<String> shipped;

  @BeforeAll
  static void unpack() throws IOException {
    assertTrue(Files.isRegularFile(TARBALL), "no image at " + TARBALL.toAbsolutePath() + ": `make image` builds it");
    var image = ImageTarball.open(TARBALL, Files.createDirectories(work.resolve("tarball")));
    config = image.runtimeConfig();
    root = Files.createDirectories(work.resolve("rootfs"));
    shipped = image.unpack(root);
    Files.createDirectories(root.resolve("proc"));
    ImageTarball.readOnlyExcept(root, root.resolve("tmp"));
  }

  @Test
  void runsJavaAsUser65532WithTheProjectsJvmFlags() throws IOException {
    assertEquals("65532:65532", config.path("User").asText());
    assertEquals(List.of("/opt/java/openjdk/bin/java", "--sun-misc-unsafe-memory-access=allow",
        "--enable-native-access=ALL-UNNAMED", "-cp", "@/app/jib-classpath-file", MAIN_CLASS), strings(config.path("Entrypoint")));
    assertTrue(strings(config.path("Env")).stream().anyMatch(e -> e.startsWith("JDK_JAVA_OPTIONS=") && e.contains("-XX:MaxRAMPercentage=")
        && e.contains("-XX:+ExitOnOutOfMemoryError")), "the tuned JVM options by default: " + config.path("Env"));
    assertTrue(Files.isExecutable(root.resolve("opt/java/openjdk/bin/java")), "the entrypoint's java is in the image");
    for (String entry : Files.readString(root.resolve("app/jib-classpath-file")).strip().split(":")) {
      assertTrue(Files.exists(root.resolve(entry.substring(1))), "class path entry " + entry + " is in the image");
    }
    assertEquals("/app", config.path("WorkingDir").asText());
    assertTrue(config.path("ExposedPorts").has("8080/tcp"), "metrics port exposed: " + config.path("ExposedPorts"));
    assertTrue(config.path("ExposedPorts").has("8081/tcp"), "health port exposed: " + config.path("ExposedPorts"));
  }

  @Test
  void carriesNoTestSandboxOrSimulatedCode() {
    var offenders = new TreeSet<String>();
    for (String path : shipped) {
      String lower = path.toLowerCase(Locale.ROOT);
      NOT_FOR_PRODUCTION.stream().filter(lower::contains).findFirst()
          .ifPresent(name -> offenders.add(path.substring(0, lower.indexOf(name) + name.length())));
    }
    assertTrue(offenders.isEmpty(), "the image's layers carry what is not production code: " + offenders);
  }

  /** Proves java, the class path and the main class work inside the image, as its user, on a read-only root. */
  @Test
  void aBadSettingStopsTheWorkerWithItsOwnMessage() throws Exception {
    var env = workerEnv(freePort(), freePort());
    env.put("FARRIER_CLOUD", "nowhere");
    env.put("JDK_JAVA_OPTIONS", "-XshowSettings:properties");
    try (var run = ContainerRun.start(root, config, env, work.resolve("bad-setting.log"))) {
      int exit = run.exitCode(START_BOUND);
      String output = run.output();
      assertEquals(2, exit, output);
      assertTrue(output.contains("farrier worker: cannot start: farrier.cloud (FARRIER_CLOUD) 'nowhere' is not in this build;"
          + " it has: aws"), output);
      assertTrue(output.contains("java.home = /opt/java/openjdk"), "the image's own JDK runs: " + output);
      assertTrue(output.contains("user.dir = /app"), "in the image's working directory: " + output);
      assertTrue(output.contains("stdout.encoding = UTF-8"), "logs keep non-ASCII characters: " + output);
    }
  }

  /** The health contract (port 8081 by default): alive while Temporal is down, and not ready, saying why. */
  @Test
  void answersHealthyButNotReadyWhileTemporalIsDown() throws Exception {
    int healthPort = freePort();
    try (var run = ContainerRun.start(root, config, workerEnv(healthPort, freePort()), work.resolve("worker.log"))) {
      var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      awaitOk(run, http, URI.create("http://127.0.0.1:" + healthPort + "/healthz"));
      // Until the first background check ends, /readyz says it has not checked yet; then it names Temporal.
      HttpResponse<String> ready;
      long deadline = System.nanoTime() + START_BOUND.toNanos();
      do {
        ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, ready.statusCode(), ready.body());
      } while (!ready.body().toLowerCase(Locale.ROOT).contains("temporal") && System.nanoTime() < deadline && sleep(500));
      assertTrue(ready.body().toLowerCase(Locale.ROOT).contains("temporal"), "/readyz names what is down: " + ready.body());
      assertTrue(run.isAlive(), run.output());
    }
  }

  /**
   * A worker configured for AWS whose every peer is a closed port on this machine: Temporal, the API server (the
   * kubeconfig is written into the image's /tmp) and the AWS endpoint, with static keys so the SDK never looks for
   * instance metadata.
   */
  private static Map<String, String> workerEnv(int healthPort, int metricsPort) throws IOException {
    int kubePort = freePort();
    Files.writeString(root.resolve("tmp/kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters:
        - name: closed
          cluster:
            server: https://127.0.0.1:%d
            insecure-skip-tls-verify: true
        users:
        - name: closed
          user:
            token: image-it
        contexts:
        - name: closed
          context:
            cluster: closed
            user: closed
        current-context: closed
        """.formatted(kubePort));
    var env = new HashMap<String, String>();
    env.put("FARRIER_CLUSTER_NAME", "image-it");
    env.put("FARRIER_TEMPORAL_ADDRESS", "127.0.0.1:" + freePort());
    env.put("FARRIER_KUBECONFIG", "/tmp/kubeconfig");
    env.put("FARRIER_HEALTH_PORT", Integer.toString(healthPort));
    env.put("FARRIER_METRICS_PORT", Integer.toString(metricsPort));
    env.put("FARRIER_AWS_ENDPOINT", "http://127.0.0.1:" + freePort());
    env.put("FARRIER_AWS_ACCESS_KEY_ID", "image-it");
    env.put("FARRIER_AWS_SECRET_ACCESS_KEY", "image-it");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("FARRIER_AWS_CLUSTER_ENDPOINT", "https://127.0.0.1:" + kubePort);
    env.put("FARRIER_AWS_CLUSTER_CA_BUNDLE", "aW1hZ2UtaXQ=");
    env.put("FARRIER_AWS_SERVICE_CIDR", "10.100.0.0/16");
    env.put("POD_NAME", "farrier-image-it");
    env.put("POD_NAMESPACE", "farrier");
    return env;
  }

  private static void awaitOk(ContainerRun run, HttpClient http, URI uri) throws Exception {
    long deadline = System.nanoTime() + START_BOUND.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!run.isAlive()) {
        fail("the worker ended before " + uri + " answered; its output:\n" + run.output());
      }
      try {
        var response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        last = response.statusCode() + " " + response.body();
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(500);
    }
    fail(uri + " never answered 200 (last: " + last + "); the worker's output:\n" + run.output());
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(node -> list.add(node.asText()));
    return list;
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static boolean sleep(long millis) throws InterruptedException {
    Thread.sleep(millis);
    return true;
  }
}
