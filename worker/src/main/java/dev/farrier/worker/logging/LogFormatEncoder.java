package dev.farrier.worker.logging;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import java.util.Locale;

/**
 * The worker's log format, {@code farrier.log.format} ({@code FARRIER_LOG_FORMAT}): {@code text} (the pattern) or
 * {@code json}, one object per line from logback's {@link JsonEncoder}: the formatted message, and the decision's fields
 * under {@code mdc} (nodeclaim, node, nodepool, instance, reason, and Temporal's WorkflowId, RunId, ActivityType) and
 * {@code kvpList}. Chosen here rather than in logback.xml so the worker needs no janino, and a wrong value says so
 * and falls back to text instead of silencing the log.
 */
public final class LogFormatEncoder extends EncoderBase<ILoggingEvent> {
  private String format = "text";
  private String pattern;
  private Encoder<ILoggingEvent> delegate;

  public void setFormat(String format) {
    this.format = format;
  }

  /** The text format's pattern. */
  public void setPattern(String pattern) {
    this.pattern = pattern;
  }

  @Override
  public void start() {
    String chosen = format == null ? "" : format.strip().toLowerCase(Locale.ROOT);
    if (chosen.equals("json")) {
      delegate = json();
    } else {
      if (!chosen.equals("text") && !chosen.isEmpty()) {
        String problem = "farrier.log.format (FARRIER_LOG_FORMAT) must be text or json, not '" + format + "': logging text";
        addError(problem);
        System.err.println(problem);
      }
      var text = new PatternLayoutEncoder();
      text.setPattern(pattern);
      delegate = text;
    }
    delegate.setContext(getContext());
    delegate.start();
    super.start();
  }

  @Override
  public void stop() {
    if (delegate != null) {
      delegate.stop();
    }
    super.stop();
  }

  private static JsonEncoder json() {
    var json = new JsonEncoder();
    json.setWithSequenceNumber(false);
    json.setWithNanoseconds(false);
    json.setWithContext(false);
    json.setWithMessage(false);
    json.setWithArguments(false);
    json.setWithFormattedMessage(true);
    return json;
  }

  @Override
  public byte[] headerBytes() {
    return delegate.headerBytes();
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    return delegate.encode(event);
  }

  @Override
  public byte[] footerBytes() {
    return delegate.footerBytes();
  }
}
