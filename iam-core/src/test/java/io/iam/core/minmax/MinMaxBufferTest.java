package io.iam.core.minmax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The incremental window choice against a brute-force rescan of the whole cache after every step. */
class MinMaxBufferTest {

  /** The brute force: every window of W consecutive cached keys, smallest unsigned span, leftmost on ties. */
  static Optional<MinMaxBuffer.Window> rescan(TreeMap<Long, Entry> cache, int w) {
    long[] keys = cache.keySet().stream().mapToLong(Long::longValue).toArray();
    MinMaxBuffer.Window best = null;
    for (int i = 0; i + w - 1 < keys.length; i++) {
      MinMaxBuffer.Window c = new MinMaxBuffer.Window(keys[i], keys[i + w - 1]);
      if (best == null || Long.compareUnsigned(c.span(), best.span()) < 0) {
        best = c;
      }
    }
    return Optional.ofNullable(best);
  }

  static LongSupplier stream(String kind, Random rnd) {
    long[] i = {0};
    return switch (kind) {
      case "random" -> () -> rnd.nextInt(1_000_000);
      case "dense" -> () -> rnd.nextInt(40); // many overwrites of cached keys
      case "nearly-sorted" -> () -> i[0]++ * 10 + rnd.nextInt(60) - (rnd.nextInt(20) == 0 ? 500 : 0);
      case "extreme" -> () -> switch (rnd.nextInt(4)) {
        case 0 -> Long.MIN_VALUE + rnd.nextInt(100);
        case 1 -> Long.MAX_VALUE - rnd.nextInt(100);
        default -> rnd.nextLong();
      };
      default -> throw new IllegalArgumentException(kind);
    };
  }

  @ParameterizedTest(name = "{0} B={1} W={2}")
  @CsvSource({
      "random,4,2", "random,16,4", "random,64,8", "random,7,7", "random,5,1",
      "dense,8,3", "dense,32,8", "nearly-sorted,16,4", "nearly-sorted,100,10", "extreme,12,3"})
  void incrementalChoiceEqualsRescan(String kind, int b, int w) {
    for (long seed = 1; seed <= 5; seed++) {
      Random rnd = new Random(seed);
      LongSupplier keys = stream(kind, rnd);
      MinMaxBuffer buf = new MinMaxBuffer(b, w);
      TreeMap<Long, Entry> model = new TreeMap<>();
      int evictions = 0;
      for (int step = 1; step <= 3000; step++) {
        String at = kind + " seed=" + seed + " step=" + step;
        Entry e = Entry.put(keys.getAsLong(), step, step);
        boolean isNew = !model.containsKey(e.key());
        model.put(e.key(), e);
        Optional<MinMaxBuffer.Window> expected = rescan(model, w);
        List<Entry> evicted = buf.add(e);
        if (isNew && model.size() == b) {
          MinMaxBuffer.Window win = expected.orElseThrow();
          List<Entry> window = new ArrayList<>(model.subMap(win.start(), true, win.end(), true).values());
          assertEquals(window, evicted, at);
          window.forEach(x -> model.remove(x.key()));
          evictions++;
        } else {
          assertEquals(List.of(), evicted, at);
        }
        assertEquals(model, buf.entries(), at);
        assertEquals(rescan(model, w), buf.bestWindow(), at);
      }
      assertTrue(evictions > 0, kind + " seed=" + seed + ": no eviction exercised");
    }
  }

  @Test
  void aNewerVersionReplacesInPlaceAndAnOlderOneIsIgnored() {
    MinMaxBuffer buf = new MinMaxBuffer(3, 2);
    buf.add(Entry.put(10, 1, 100));
    buf.add(Entry.put(20, 2, 200));
    assertEquals(List.of(), buf.add(Entry.put(10, 3, 101)));
    assertEquals(List.of(), buf.add(Entry.put(10, 0, 99)));
    assertEquals(Entry.put(10, 3, 101), buf.get(10));
    assertEquals(2, buf.size());
    // A tombstone takes a slot and leaves in a bucket like a put: [10, 20] (span 10) beats [20, 50].
    List<Entry> out = buf.add(Entry.delete(50, 4));
    assertEquals(List.of(Entry.put(10, 3, 101), Entry.put(20, 2, 200)), out);
    assertEquals(Entry.delete(50, 4), buf.get(50));
  }

  @Test
  void windowEqualToCapacityEvictsTheWholeCacheAndDrainCutsRunsOfW() {
    MinMaxBuffer whole = new MinMaxBuffer(3, 3);
    whole.add(Entry.put(5, 1, 0));
    whole.add(Entry.put(1, 2, 0));
    assertEquals(3, whole.add(Entry.put(9, 3, 0)).size());
    assertEquals(0, whole.size());

    MinMaxBuffer buf = new MinMaxBuffer(10, 3);
    for (int k = 7; k >= 1; k--) {
      buf.add(Entry.put(k, 8 - k, 0));
    }
    List<List<Entry>> runs = buf.drain();
    assertEquals(List.of(3, 3, 1), runs.stream().map(List::size).toList());
    assertEquals(7L, runs.get(2).get(0).key());
    assertEquals(0, buf.size());
    assertEquals(Optional.empty(), buf.bestWindow());
  }

  @Test
  void rejectsAWindowOutsideOneToCapacity() {
    assertThrows(IllegalArgumentException.class, () -> new MinMaxBuffer(4, 0));
    assertThrows(IllegalArgumentException.class, () -> new MinMaxBuffer(4, 5));
  }
}
