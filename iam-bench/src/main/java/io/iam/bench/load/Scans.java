package io.iam.bench.load;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The read loop of the built-in targets' scans, over any iterator already seeked to the start. */
final class Scans {

  private Scans() {}

  /**
   * Hands {@code entries} up to {@code limit} entries from an iterator, stopping at the first key
   * past {@code end} (in unsigned byte order) if {@code end} is not null.
   *
   * @return the entries handed over
   */
  static long read(BooleanSupplier valid, Supplier<byte[]> key, Supplier<byte[]> value, Runnable next, long limit,
      byte[] end, LoadTarget.Entries entries) {
    long read = 0;
    for (; read < limit && valid.getAsBoolean(); next.run()) {
      byte[] k = key.get();
      if (end != null && Arrays.compareUnsigned(k, end) > 0) {
        break;
      }
      entries.accept(k, value.get());
      read++;
    }
    return read;
  }
}
