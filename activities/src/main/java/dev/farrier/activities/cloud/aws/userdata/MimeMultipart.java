package dev.farrier.activities.cloud.aws.userdata;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.james.mime4j.dom.Entity;
import org.apache.james.mime4j.dom.Message;
import org.apache.james.mime4j.dom.Multipart;
import org.apache.james.mime4j.dom.SingleBody;
import org.apache.james.mime4j.message.BasicBodyFactory;
import org.apache.james.mime4j.message.BodyPartBuilder;
import org.apache.james.mime4j.message.DefaultMessageBuilder;
import org.apache.james.mime4j.message.DefaultMessageWriter;
import org.apache.james.mime4j.message.MultipartBuilder;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.NameValuePair;
import org.apache.james.mime4j.stream.RawField;

/**
 * The MIME multi-part user data cloud-init and nodeadm read: parts in order, each with its content type, parsed and
 * written by Apache James mime4j. Parses the user's own multi-part documents so their parts can be kept alongside
 * Farrier's.
 */
public final class MimeMultipart {
  public static final String BOUNDARY = "//";
  private static final String DEFAULT_PART_TYPE = "text/x-shellscript";

  public record Part(String contentType, String body) {}

  private MimeMultipart() {}

  public static boolean isMultipart(String userData) {
    return userData != null && userData.lines().limit(5).anyMatch(l -> l.toLowerCase().startsWith("content-type: multipart/mixed"));
  }

  /** The parts of a multi-part document; throws {@link IllegalArgumentException} when it is not one. */
  public static List<Part> parse(String document) {
    Message message;
    try {
      message = new DefaultMessageBuilder().parseMessage(new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("multi-part user data cannot be read: " + e.getMessage(), e);
    }
    if (!(message.getBody() instanceof Multipart multipart)) {
      throw new IllegalArgumentException("multi-part user data has no boundary in its Content-Type header");
    }
    List<Part> parts = new ArrayList<>();
    for (Entity entity : multipart.getBodyParts()) {
      Field type = entity.getHeader().getField("Content-Type");
      parts.add(new Part(type == null ? DEFAULT_PART_TYPE : type.getBody().strip(), text(entity)));
    }
    return parts;
  }

  private static String text(Entity entity) {
    if (!(entity.getBody() instanceof SingleBody body)) {
      throw new IllegalArgumentException("nested multi-part user data is not supported");
    }
    try (InputStream in = body.getInputStream()) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
      // The line break before the next boundary ends the part; render() adds it, so parse() takes it off.
      return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String render(List<Part> parts) {
    MultipartBuilder multipart = MultipartBuilder.create("mixed");
    for (Part part : parts) {
      String body = part.body().endsWith("\n") ? part.body() : part.body() + "\n";
      multipart.addBodyPart(BodyPartBuilder.create()
          .setBody(BasicBodyFactory.INSTANCE.textBody(body, StandardCharsets.UTF_8))
          .setField(new RawField("Content-Type", part.contentType())));
    }
    Message message = Message.Builder.of().setField(new RawField("MIME-Version", "1.0")).setBody(multipart.build())
        .setContentType("multipart/mixed", new NameValuePair("boundary", BOUNDARY)).build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      new DefaultMessageWriter().writeMessage(message, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
