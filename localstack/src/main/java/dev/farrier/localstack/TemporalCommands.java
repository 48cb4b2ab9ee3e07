package dev.farrier.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines of the Temporal CLI: the dev server and the probe that tells when it is ready. */
record TemporalCommands(Path binDir, Path runDir, int port, int uiPort, List<String> searchAttributes) {
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
        // SQLite's default rollback journal with a full sync on every commit cost the server about twice the CPU per
        // history event (measured: 200 workflows of 15 activities, 138 s of server CPU against 68 s). A write-ahead
        // log synced at checkpoints survives a killed process; only an OS crash can lose the last commits.
        "--sqlite-pragma", "journal_mode=wal",
        "--sqlite-pragma", "synchronous=NORMAL",
        "--log-level", "warn",
        // The frontend otherwise phones home to check for newer server versions; tests must not reach the internet.
        "--dynamic-config-value", "frontend.enableServerVersionCheck=false"));
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
