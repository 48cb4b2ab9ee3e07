package dev.farrier.workflows.upgrade;

import dev.farrier.model.AmiTerm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a fleet upgrade rolls to, written as {@code farrier upgrade --ami} takes it, and the {@code amiSelectorTerms}
 * that text stands for:
 * <ul>
 *   <li>{@code al2023@v20251103}, {@code bottlerocket@latest}: an alias ({@code family@version});</li>
 *   <li>{@code ami-0abc,ami-0def}: image ids (one per architecture);</li>
 *   <li>{@code name=my-ami-*} with optional {@code ,owner=self} and {@code ,tag:KEY=VALUE}: a name pattern;</li>
 *   <li>{@code tag:KEY=VALUE[,tag:KEY=VALUE]}: images carrying all these tags.</li>
 * </ul>
 *
 * @param text  the target as written (trimmed): part of the rollout's workflow id, so the same CI job finds the same
 *              rollout
 * @param terms the selector terms it stands for
 */
public record AmiTarget(String text, List<AmiTerm> terms) {
  private static final Pattern ALIAS = Pattern.compile("[a-z0-9]+@[A-Za-z0-9._-]+");
  private static final Pattern IMAGE_ID = Pattern.compile("ami-[0-9a-f]{8,17}");
  private static final Pattern TEXT = Pattern.compile("[A-Za-z0-9@._*?=:,/-]+");

  public AmiTarget {
    terms = List.copyOf(terms);
  }

  /** Parses {@code --ami}; throws {@link IllegalArgumentException} saying what is wrong and what is accepted. */
  public static AmiTarget parse(String raw) {
    String text = raw == null ? "" : raw.strip();
    if (text.isEmpty()) {
      throw invalid(raw, "it is empty");
    }
    if (!TEXT.matcher(text).matches()) {
      throw invalid(raw, "it has characters outside letters, digits and @ . _ * ? = : , / -");
    }
    if (ALIAS.matcher(text).matches()) {
      return new AmiTarget(text, List.of(AmiTerm.ofAlias(text)));
    }
    if (text.startsWith("ami-")) {
      List<AmiTerm> ids = new ArrayList<>();
      for (String id : text.split(",")) {
        if (!IMAGE_ID.matcher(id).matches()) {
          throw invalid(raw, "'" + id + "' is not an image id (ami- and 8 to 17 hex digits)");
        }
        ids.add(AmiTerm.ofId(id));
      }
      return new AmiTarget(text, ids);
    }
    String name = null;
    String owner = null;
    Map<String, String> tags = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq <= 0 || eq == part.length() - 1) {
        throw invalid(raw, "'" + part + "' is not KEY=VALUE");
      }
      String key = part.substring(0, eq);
      String value = part.substring(eq + 1);
      if (key.equals("name")) {
        name = value;
      } else if (key.equals("owner")) {
        owner = value;
      } else if (key.startsWith("tag:") && key.length() > 4) {
        tags.put(key.substring(4), value);
      } else {
        throw invalid(raw, "unknown key '" + key + "' (name, owner, tag:KEY)");
      }
    }
    if (name == null && tags.isEmpty()) {
      throw invalid(raw, "a name pattern or a tag is needed (owner alone selects every image of the account)");
    }
    return new AmiTarget(text, List.of(new AmiTerm(null, null, name, owner, tags)));
  }

  private static IllegalArgumentException invalid(String raw, String why) {
    return new IllegalArgumentException("--ami '" + raw + "' is not a target: " + why + ". Accepted: an alias such as "
        + "al2023@v20251103, image ids ami-0abc[,ami-0def], name=PATTERN[,owner=OWNER][,tag:KEY=VALUE], or tag:KEY=VALUE");
  }
}
