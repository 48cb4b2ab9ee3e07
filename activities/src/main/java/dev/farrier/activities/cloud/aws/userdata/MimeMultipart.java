package dev.farrier.activities.cloud.aws.userdata;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MIME multi-part user data cloud-init and nodeadm read: parts in order, each with its content type. Parses
 * the user's own multi-part documents so their parts can be kept alongside Farrier's.
 */
public final class MimeMultipart {
  public static final String BOUNDARY = "//";
  private static final Pattern BOUNDARY_HEADER = Pattern.compile("boundary=\"?([^\"\\s;]+)\"?");

  public record Part(String contentType, String body) {}

  private MimeMultipart() {}

  public static boolean isMultipart(String userData) {
    return userData != null && userData.lines().limit(5).anyMatch(l -> l.toLowerCase().startsWith("content-type: multipart/mixed"));
  }

  /** The parts of a multi-part document; throws {@link IllegalArgumentException} when it names no boundary. */
  public static List<Part> parse(String document) {
    String text = document.replace("\r\n", "\n");
    Matcher m = BOUNDARY_HEADER.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("multi-part user data has no boundary in its Content-Type header");
    }
    String delimiter = "--" + m.group(1);
    List<Part> parts = new ArrayList<>();
    String[] chunks = text.split(Pattern.quote(delimiter), -1);
    for (int i = 1; i < chunks.length; i++) {
      String chunk = chunks[i];
      if (chunk.startsWith("--")) {
        break;
      }
      chunk = chunk.startsWith("\n") ? chunk.substring(1) : chunk;
      int blank = chunk.indexOf("\n\n");
      String headers = blank < 0 ? chunk : chunk.substring(0, blank);
      String body = blank < 0 ? "" : chunk.substring(blank + 2);
      String contentType = headers.lines().filter(l -> l.toLowerCase().startsWith("content-type:"))
          .map(l -> l.substring("content-type:".length()).trim()).findFirst().orElse("text/x-shellscript");
      parts.add(new Part(contentType, body.endsWith("\n") ? body.substring(0, body.length() - 1) : body));
    }
    return parts;
  }

  public static String render(List<Part> parts) {
    StringBuilder out = new StringBuilder();
    out.append("MIME-Version: 1.0\n");
    out.append("Content-Type: multipart/mixed; boundary=\"").append(BOUNDARY).append("\"\n\n");
    for (Part part : parts) {
      out.append("--").append(BOUNDARY).append('\n');
      out.append("Content-Type: ").append(part.contentType()).append("\n\n");
      out.append(part.body());
      if (!part.body().endsWith("\n")) {
        out.append('\n');
      }
    }
    out.append("--").append(BOUNDARY).append("--\n");
    return out.toString();
  }
}
