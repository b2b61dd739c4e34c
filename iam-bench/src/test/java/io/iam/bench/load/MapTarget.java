package io.iam.bench.load;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * A store in a sorted map, for testing the runner: it writes every byte once (write and space
 * amplification 1), can forget keys to play a store that lost data, records what it was asked to
 * read, and has the properties it is given plus scan counters (two sequences per scan).
 */
final class MapTarget implements LoadTarget {

  final NavigableMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);
  final List<String> gets = new ArrayList<>();
  final List<byte[]> scanStarts = new ArrayList<>();
  private final Set<String> lost;
  private final Map<String, Number> properties;
  private long userBytes;
  boolean closed;

  /**
   * @param lost keys whose puts it drops
   * @param properties what {@link #properties()} reports besides {@code scan.count} and {@code
   *     scan.sequences}
   */
  MapTarget(Set<String> lost, Map<String, Number> properties) {
    this.lost = lost;
    this.properties = properties;
  }

  MapTarget() {
    this(Set.of(), Map.of());
  }

  /** A factory that hands out this one target. */
  LoadTarget.Factory factory() {
    return (dir, config) -> this;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    userBytes += key.length + value.length;
    if (!lost.contains(text(key))) {
      map.put(key, value);
    }
  }

  @Override
  public void settle() {}

  @Override
  public LoadMetrics metrics() {
    long disk = map.entrySet().stream().mapToLong(e -> e.getKey().length + e.getValue().length).sum();
    return new LoadMetrics(userBytes, userBytes, 0, disk, List.of(LevelMetrics.of(0, 1, disk, userBytes, userBytes)),
        "");
  }

  @Override
  public byte[] get(byte[] key) {
    gets.add(text(key));
    return map.get(key);
  }

  @Override
  public void delete(byte[] key) {
    map.remove(key);
  }

  @Override
  public int scan(byte[] start, int limit, Entries entries) {
    scanStarts.add(start);
    int read = 0;
    for (Map.Entry<byte[], byte[]> e : map.tailMap(start, true).entrySet()) {
      if (read == limit) {
        break;
      }
      entries.accept(e.getKey(), e.getValue());
      read++;
    }
    return read;
  }

  @Override
  public Map<String, Number> properties() {
    Map<String, Number> all = new LinkedHashMap<>(properties);
    all.put("scan.count", scanStarts.size());
    all.put("scan.sequences", 2 * scanStarts.size());
    return all;
  }

  @Override
  public void close() {
    closed = true;
  }

  static String text(byte[] key) {
    return new String(key, StandardCharsets.US_ASCII);
  }
}
