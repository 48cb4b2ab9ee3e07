package dev.farrier.activities.cloud;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of an instance type name behind Karpenter's {@code karpenter.k8s.aws/instance-*} labels:
 * {@code m7gd.2xlarge} is family {@code m7gd}, category {@code m}, generation {@code 7}, size {@code 2xlarge}.
 * Parsed as Karpenter's AWS provider does ({@code u-6tb1.metal}: category {@code u}, generation {@code 1}); a name
 * without a generation (none in the catalogue today) leaves category and generation empty.
 */
public record InstanceTypeName(String family, String category, String generation, String size) {
  private static final Pattern SCHEME = Pattern.compile("^([a-z]+)(-[0-9]+tb)?([0-9]+).*\\.");

  public static InstanceTypeName parse(String name) {
    int dot = name.indexOf('.');
    String family = dot < 0 ? name : name.substring(0, dot);
    String size = dot < 0 ? "" : name.substring(dot + 1);
    Matcher m = SCHEME.matcher(name);
    if (!m.find()) {
      return new InstanceTypeName(family, "", "", size);
    }
    return new InstanceTypeName(family, m.group(1), m.group(3), size);
  }
}
