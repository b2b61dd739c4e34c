package io.iam.core.table;

import java.util.Arrays;

/**
 * A Bloom filter over user keys, stored as its bit array followed by one byte holding the number
 * of probes k. Probes use double hashing from one 32-bit hash (the scheme of LevelDB's bloom
 * filter): {@code h, h+δ, h+2δ, ...} with {@code δ} the hash rotated by 15 bits. k is {@code
 * round(bitsPerKey × ln 2)} clamped to 1..30; filters with k above 30 are treated as "may contain
 * everything" (reserved for other encodings). Immutable and thread-safe once built; a {@link
 * Builder} is single-threaded.
 */
public final class BloomFilter {

  private static final int SEED = 0xbc9f1d34;

  private final byte[] data;
  /** Probe positions are the hash modulo the number of bits. */
  private final FastRemainder bits;

  private BloomFilter(byte[] data) {
    this.data = data;
    this.bits = new FastRemainder(8L * (data.length - 1));
  }

  /** Number of probes for a bits-per-key setting. */
  public static int probes(int bitsPerKey) {
    return (int) Math.max(1, Math.min(30, Math.round(bitsPerKey * Math.log(2))));
  }

  /** A filter over {@code userKeys} with {@code bitsPerKey} bits per key (at least 1). */
  public static BloomFilter build(Iterable<byte[]> userKeys, int bitsPerKey) {
    Builder b = builder(bitsPerKey);
    for (byte[] k : userKeys) {
      b.add(k);
    }
    return b.build();
  }

  public static Builder builder(int bitsPerKey) {
    return new Builder(bitsPerKey);
  }

  /**
   * Wraps a serialized filter (as produced by {@link #toBytes()}); the array is not copied.
   *
   * @throws IllegalArgumentException if it is too short to be a filter
   */
  public static BloomFilter fromBytes(byte[] data) {
    if (data.length < 2) {
      throw new IllegalArgumentException("a Bloom filter needs at least 2 bytes, got " + data.length);
    }
    return new BloomFilter(data);
  }

  /** The serialized filter (a copy). */
  public byte[] toBytes() {
    return data.clone();
  }

  /** Serialized length in bytes. */
  public int sizeBytes() {
    return data.length;
  }

  /** False only if {@code userKey} was certainly not added. */
  public boolean mayContain(byte[] userKey) {
    return mayContain(userKey, 0, userKey.length);
  }

  public boolean mayContain(byte[] key, int off, int len) {
    int k = data[data.length - 1] & 0xFF;
    if (k > 30) {
      return true;
    }
    int h = hash(key, off, len);
    int delta = Integer.rotateRight(h, 17);
    for (int j = 0; j < k; j++) {
      long bit = bits.of(h);
      if ((data[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        return false;
      }
      h += delta;
    }
    return true;
  }

  /**
   * The filter's 32-bit hash: MurmurHash3 (x86, 32-bit) with a fixed seed. Part of the file
   * format; never change it.
   */
  static int hash(byte[] d, int off, int len) {
    final int c1 = 0xcc9e2d51;
    final int c2 = 0x1b873593;
    int h = SEED;
    int end = off + (len & ~3);
    for (int i = off; i < end; i += 4) {
      int k = (d[i] & 0xFF) | (d[i + 1] & 0xFF) << 8 | (d[i + 2] & 0xFF) << 16 | (d[i + 3] & 0xFF) << 24;
      k *= c1;
      k = Integer.rotateLeft(k, 15);
      k *= c2;
      h ^= k;
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    int rem = len & 3;
    if (rem != 0) {
      int k = 0;
      if (rem == 3) {
        k ^= (d[end + 2] & 0xFF) << 16;
      }
      if (rem >= 2) {
        k ^= (d[end + 1] & 0xFF) << 8;
      }
      k ^= d[end] & 0xFF;
      k *= c1;
      k = Integer.rotateLeft(k, 15);
      k *= c2;
      h ^= k;
    }
    h ^= len;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /** Collects key hashes (4 bytes per key, not the keys) and builds the filter. */
  public static final class Builder {
    private final int bitsPerKey;
    private int[] hashes = new int[1024];
    private int count;

    private Builder(int bitsPerKey) {
      if (bitsPerKey < 1 || bitsPerKey > 64) {
        throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
      }
      this.bitsPerKey = bitsPerKey;
    }

    public Builder add(byte[] userKey) {
      return add(userKey, 0, userKey.length);
    }

    public Builder add(byte[] key, int off, int len) {
      if (count == hashes.length) {
        hashes = Arrays.copyOf(hashes, 2 * hashes.length);
      }
      hashes[count++] = hash(key, off, len);
      return this;
    }

    public int keyCount() {
      return count;
    }

    /** The serialized size {@link #build()} would produce now. */
    public long sizeBytes() {
      return bitBytes() + 1;
    }

    private long bitBytes() {
      long bits = Math.max(64L, (long) count * bitsPerKey);
      return (bits + 7) / 8;
    }

    public BloomFilter build() {
      long bytes = bitBytes();
      if (bytes > Integer.MAX_VALUE - 64) {
        throw new IllegalStateException("Bloom filter too large: " + count + " keys");
      }
      byte[] data = new byte[(int) bytes + 1];
      FastRemainder bits = new FastRemainder(8 * bytes);
      int k = probes(bitsPerKey);
      data[data.length - 1] = (byte) k;
      for (int i = 0; i < count; i++) {
        int h = hashes[i];
        int delta = Integer.rotateRight(h, 17);
        for (int j = 0; j < k; j++) {
          long bit = bits.of(h);
          data[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
          h += delta;
        }
      }
      return new BloomFilter(data);
    }
  }
}
