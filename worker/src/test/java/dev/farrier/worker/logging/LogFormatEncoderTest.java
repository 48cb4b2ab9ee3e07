package dev.farrier.worker.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.workflows.StructuredLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.MDC;

/** The worker's own logback.xml, in each format, with the fields workflows and activities log. */
class LogFormatEncoderTest {
  @Test
  void jsonLinesParseAndCarryTheDecisionsFields() throws Exception {
    List<String> lines = logWithTheWorkersConfig("json", log -> {
      // What the Temporal SDK puts in the MDC of a workflow thread, and a decision logged as workflows do.
      MDC.put("WorkflowId", "launch/default-abc12");
      try {
        StructuredLog.info(log, "launched nodeclaim", "nodeclaim", "default-abc12", "nodepool", "default",
            "node", "ip-10-0-1-5.ec2.internal", "instance", "i-0123");
      } finally {
        MDC.remove("WorkflowId");
      }
      // ... and a fluent activity line.
      log.atInfo().setMessage("pod evicted").addKeyValue("nodeclaim", "default-abc12").addKeyValue("pod", "default/web-1").log();
    });
    assertEquals(2, lines.size(), lines.toString());
    var mapper = new ObjectMapper();

    JsonNode launched = mapper.readTree(lines.get(0));
    assertEquals("INFO", launched.get("level").asText());
    assertEquals("launched nodeclaim", launched.get("formattedMessage").asText());
    assertEquals("default-abc12", launched.at("/mdc/nodeclaim").asText());
    assertEquals("default", launched.at("/mdc/nodepool").asText());
    assertEquals("ip-10-0-1-5.ec2.internal", launched.at("/mdc/node").asText());
    assertEquals("launch/default-abc12", launched.at("/mdc/WorkflowId").asText());

    JsonNode evicted = mapper.readTree(lines.get(1));
    assertEquals("pod evicted", evicted.get("formattedMessage").asText());
    assertEquals("default-abc12", evicted.at("/kvpList/0/nodeclaim").asText());
    assertEquals("default/web-1", evicted.at("/kvpList/1/pod").asText());
    assertTrue(evicted.at("/mdc").isEmpty() || evicted.at("/mdc").isMissingNode(), "StructuredLog cleaned up its MDC: " + evicted);
  }

  @Test
  void textIsTheDefaultAndShowsTheSameFields() throws Exception {
    List<String> lines = logWithTheWorkersConfig(null,
        log -> StructuredLog.info(log, "launched nodeclaim", "nodeclaim", "default-abc12", "nodepool", "default"));
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.getFirst().matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  .* launched nodeclaim .*nodeclaim=default-abc12.*"),
        lines.getFirst());
  }

  @Test
  void anUnknownFormatSaysSoAndLogsText() throws Exception {
    var err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    List<String> lines;
    try {
      lines = logWithTheWorkersConfig("yaml", log -> log.info("hello"));
    } finally {
      System.setErr(stderr);
    }
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("FARRIER_LOG_FORMAT) must be text or json, not 'yaml'"), err.toString());
    assertEquals(1, lines.size());
    assertTrue(lines.getFirst().contains(" INFO  ") && lines.getFirst().contains("hello"), lines.getFirst());
  }

  private interface Logging {
    void to(Logger log) throws Exception;
  }

  /** Configures a fresh context from the worker's logback.xml, logs, and returns what went to stdout. */
  private static List<String> logWithTheWorkersConfig(String format, Logging logging) throws Exception {
    var context = new LoggerContext();
    context.setMDCAdapter(MDC.getMDCAdapter()); // the one StructuredLog and the Temporal SDK write to
    if (format != null) {
      context.putProperty("farrier.log.format", format);
    }
    var out = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      configure(context);
      logging.to(context.getLogger("dev.farrier.workflows.provisioning.NodeLaunchWorkflowImpl"));
    } finally {
      context.stop();
      System.setOut(stdout);
    }
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  private static void configure(LoggerContext context) throws JoranException {
    var configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(LogFormatEncoderTest.class.getResource("/logback.xml"));
  }
}
