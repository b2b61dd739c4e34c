package io.iam.core.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child process of {@link CrashRecoveryTest}: opens the store in {@code args[0]} with the tree
 * {@code args[2]}, writes synced batches of three keys each, numbered from {@code args[1]}, and
 * prints each batch number once it is acknowledged, until it is killed. Small memtables keep
 * flushes and compactions (node flushes, appends, merges) running all the time.
 */
public final class CrashWorkload {

  private CrashWorkload() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long first = Long.parseLong(args[1]);
    String tree = args[2];
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(tree, 2))) {
      System.out.println("open");
      System.out.flush();
      for (long i = first; ; i++) {
        WriteBatch batch = new WriteBatch();
        for (String part : new String[] {"a", "b", "c"}) {
          batch.put(key(i, part), value(i, part));
        }
        store.write(batch, WriteOptions.SYNC);
        KilledChild.acknowledge(i);
      }
    }
  }

  static byte[] key(long batch, String part) {
    return String.format("k%012d%s", batch, part).getBytes(StandardCharsets.UTF_8);
  }

  /** About 1 KiB, derived from the batch number so a reader can check it. */
  static byte[] value(long batch, String part) {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 1000) {
      sb.append(batch).append(part).append('-');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
