package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What every load target's {@link LoadTarget#get} and {@link LoadTarget#scan} must do. */
final class ReadsAndScans {

  static final int RECORDS = 2000;
  static final long MEMTABLE = 64 << 10;

  private ReadsAndScans() {}

  /**
   * Loads 2,000 records into a new store with a 64 KiB memtable, overwrites a tenth, settles, and
   * checks that every key reads its newest value, that absent keys read null, and that a scan from
   * each key reads {@code min(limit, keys from there on)} entries.
   */
  static void check(LoadTarget.Factory factory, String tree, Path dir) throws IOException {
    LoadWorkload w = new LoadWorkload(RECORDS, 100, KeyOrder.HASH, 42);
    byte[][] keys = new byte[RECORDS][];
    byte[][] values = new byte[RECORDS][];
    try (LoadTarget target = factory.open(dir, LoadConfig.defaults(tree, MEMTABLE, 1 << 20))) {
      for (int n = 0; n < RECORDS; n++) {
        keys[n] = w.key(n);
        values[n] = w.nextValue();
        target.put(keys[n], values[n]);
      }
      for (int n = 0; n < RECORDS; n += 10) {
        values[n] = w.nextValue();
        target.put(keys[n], values[n]);
      }
      target.settle();

      for (int n = 0; n < RECORDS; n++) {
        assertArrayEquals(values[n], target.get(keys[n]), "record " + n);
      }
      assertNull(target.get("user".getBytes()));
      assertNull(target.get("zzz".getBytes()));

      List<byte[]> sorted = new ArrayList<>(Arrays.asList(keys));
      sorted.sort(Arrays::compareUnsigned);
      int limit = 100;
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(Math.min(limit, RECORDS - i), target.scan(sorted.get(i), limit), "scan from key " + i);
      }
      assertEquals(RECORDS, target.scan("user".getBytes(), RECORDS + 5), "from before the first key: all of them");
      assertEquals(1, target.scan("user".getBytes(), 1));
      assertEquals(0, target.scan("zzz".getBytes(), limit), "after the last key: nothing");
    }
  }
}
