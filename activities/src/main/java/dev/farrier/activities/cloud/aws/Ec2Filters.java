package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.SelectorTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Tag;

/** EC2 Describe* filters for Karpenter-style selector terms. */
final class Ec2Filters {
  private Ec2Filters() {}

  static Filter of(String name, String value) {
    return Filter.builder().name(name).values(value).build();
  }

  /** {@code tag:<key>=<value>} for each tag, {@code tag-key=<key>} where the value is {@code *} (any value). */
  static List<Filter> tags(Map<String, String> tags) {
    List<Filter> filters = new ArrayList<>();
    new TreeMap<>(tags).forEach((key, value) -> filters.add(SelectorTags.ANY.equals(value)
        ? of("tag-key", key) : of("tag:" + key, value)));
    return filters;
  }

  static Map<String, String> toMap(List<Tag> tags) {
    Map<String, String> map = new TreeMap<>();
    for (Tag tag : tags) {
      map.put(tag.key(), tag.value());
    }
    return map;
  }
}
