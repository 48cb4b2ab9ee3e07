package dev.farrier.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines of the Temporal CLI: the dev server and the probe that tells when it is ready. */
record TemporalCommands(Path binDir, Path runDir, int port, int uiPort, List<String> searchAttributes,
    List<String> sqlitePragmas) {
  String address() {
    return "127.0.0.1:" + port;
  }

  List<String> startDev() {
    List<String> command = new ArrayList<>(List.of(bin(),
        "server", "start-dev",
        "--ip", "127.0.0.1",
        "--port", Integer.toString(port),
        "--ui-port", Integer.toString(uiPort),
        "--db-filename", runDir.resolve("temporal.db").toString(),
        "--log-level", "warn",
        // The frontend otherwise phones home to check for newer server versions; tests must not reach the internet.
        "--dynamic-config-value", "frontend.enableServerVersionCheck=false"));
    for (String pragma : sqlitePragmas) {
      command.add("--sqlite-pragma");
      command.add(pragma);
    }
    for (String name : searchAttributes) {
      command.add("--search-attribute");
      command.add(name + "=Keyword");
    }
    return command;
  }

  /**
   * Lists the registered search attributes. It succeeds only once the frontend serves, and the dev server
   * registers the attributes after it starts serving, so seeing every requested name means ready.
   */
  List<String> listSearchAttributes() {
    return List.of(bin(), "operator", "search-attribute", "list", "--address", address(), "--output", "json",
        "--command-timeout", "5s", "--disable-config-file", "--disable-config-env");
  }

  private String bin() {
    return binDir.resolve("temporal").toString();
  }
}
