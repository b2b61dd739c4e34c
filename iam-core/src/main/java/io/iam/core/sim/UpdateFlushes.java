package io.iam.core.sim;

import io.iam.core.option.OptionType;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The update model of the bounded-depth paper (§V.E): each write is an insert of a new key or,
 * with probability {@code updateFraction}, an update of an existing key chosen by a Zipf
 * distribution (exponent θ) concentrated on the most recently inserted keys. The memtable holds
 * distinct keys; an update of a key already in it does not grow it, so flushes come less often.
 * When it holds {@code recordsPerFlush} keys it flushes them. Merges then write the union of
 * their inputs' keys, so updates shrink merge output.
 */
public final class UpdateFlushes implements FlushStream {

  private final int recordsPerFlush;
  private final long recordBytes;
  private final double updateFraction;
  private final long seed;
  private final SplittableRandom random;
  private final ZipfLatest zipf;
  private int[] memtableOf = new int[1 << 16];
  private int memtable = 1;
  private int[] lastKeys;
  private long writes;

  public UpdateFlushes(int recordsPerFlush, long recordBytes, double updateFraction, double theta, long seed) {
    if (recordsPerFlush < 1 || recordBytes < 1) {
      throw new IllegalArgumentException("records per flush and record size must be >= 1");
    }
    if (!(updateFraction >= 0 && updateFraction < 1)) {
      throw new IllegalArgumentException("update fraction must be in [0, 1): " + updateFraction);
    }
    this.recordsPerFlush = recordsPerFlush;
    this.recordBytes = recordBytes;
    this.updateFraction = updateFraction;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    this.zipf = new ZipfLatest(theta);
  }

  @Override
  public long nextLength() {
    int[] keys = new int[recordsPerFlush];
    int count = 0;
    while (count < recordsPerFlush) {
      writes++;
      int key;
      if (zipf.items() > 0 && random.nextDouble() < updateFraction) {
        key = (int) zipf.draw(random);
      } else {
        if (zipf.items() >= Integer.MAX_VALUE) {
          throw new IllegalStateException("the update model supports at most 2^31 - 1 keys");
        }
        key = (int) zipf.items();
        zipf.grow();
      }
      if (key >= memtableOf.length) {
        memtableOf = Arrays.copyOf(memtableOf, Math.max(key + 1, memtableOf.length * 2));
      }
      if (memtableOf[key] != memtable) {
        memtableOf[key] = memtable;
        keys[count++] = key;
      }
    }
    memtable++;
    Arrays.sort(keys);
    lastKeys = keys;
    return recordsPerFlush * recordBytes;
  }

  /** User writes so far, counting updates absorbed by the memtable. */
  public long writes() {
    return writes;
  }

  @Override
  public boolean keyed() {
    return true;
  }

  @Override
  public int[] lastKeys() {
    if (lastKeys == null) {
      throw new IllegalStateException("no flush yet");
    }
    return lastKeys;
  }

  @Override
  public long recordBytes() {
    return recordBytes;
  }

  @Override
  public String describe() {
    return String.format(
        "updates %.0f%% zipf-latest, %d records × %s per flush, seed %d",
        updateFraction * 100, recordsPerFlush, OptionType.SIZE.format(recordBytes), seed);
  }
}
