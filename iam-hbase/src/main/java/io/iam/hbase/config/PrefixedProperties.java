package io.iam.hbase.config;

import java.util.Map;
import java.util.TreeMap;

/** Picks one family of properties (such as {@code iam.compaction.*}) out of an HBase configuration. */
public final class PrefixedProperties {

  private PrefixedProperties() {}

  /**
   * The entries of {@code properties} whose key starts with {@code prefix}, keyed without it and
   * with values trimmed; entries without a value are left out. Sorted by key.
   */
  public static Map<String, String> under(String prefix, Iterable<Map.Entry<String, String>> properties) {
    Map<String, String> picked = new TreeMap<>();
    for (Map.Entry<String, String> e : properties) {
      if (e.getKey() != null && e.getKey().startsWith(prefix) && e.getValue() != null) {
        picked.put(e.getKey().substring(prefix.length()), e.getValue().trim());
      }
    }
    return picked;
  }
}
