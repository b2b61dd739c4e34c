package io.iam.core.table;

import java.util.Arrays;

/**
 * Builds one block payload: prefix-compressed entries with a restart point every {@code
 * restartInterval} entries (LevelDB's block format). Keys must be added in order; the caller
 * checks that. Not thread-safe; reusable after {@link #reset()}.
 */
final class BlockBuilder {

  private final int restartInterval;
  private final ByteSink buf;
  private int[] restarts = new int[16];
  private int restartCount;
  private int counter;
  private int entries;
  private byte[] lastKey = new byte[64];
  private int lastKeyLength;

  BlockBuilder(int restartInterval, int initialCapacity) {
    this.restartInterval = restartInterval;
    this.buf = new ByteSink(initialCapacity);
    reset();
  }

  void reset() {
    buf.reset();
    restartCount = 0;
    restarts[restartCount++] = 0;
    counter = 0;
    entries = 0;
    lastKeyLength = 0;
  }

  boolean isEmpty() {
    return entries == 0;
  }

  int entries() {
    return entries;
  }

  /** The exact payload length {@link #finishInto} would produce now. */
  int sizeEstimate() {
    return buf.size() + 4 * restartCount + 4;
  }

  void add(byte[] key, byte[] value) {
    add(key, 0, key.length, value, 0, value.length);
  }

  void add(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen) {
    int shared = 0;
    if (counter < restartInterval) {
      int max = Math.min(lastKeyLength, keyLen);
      shared = Arrays.mismatch(lastKey, 0, max, key, keyOff, keyOff + max);
      if (shared < 0) {
        shared = max;
      }
    } else {
      if (restartCount == restarts.length) {
        restarts = Arrays.copyOf(restarts, 2 * restarts.length);
      }
      restarts[restartCount++] = buf.size();
      counter = 0;
    }
    buf.putVarint(shared);
    buf.putVarint(keyLen - shared);
    buf.putVarint(valueLen);
    buf.put(key, keyOff + shared, keyLen - shared);
    buf.put(value, valueOff, valueLen);
    if (lastKey.length < keyLen) {
      lastKey = Arrays.copyOf(lastKey, Math.max(keyLen, 2 * lastKey.length));
    }
    System.arraycopy(key, keyOff + shared, lastKey, shared, keyLen - shared);
    lastKeyLength = keyLen;
    counter++;
    entries++;
  }

  /**
   * Appends the finished block (payload and trailer) to {@code out} and resets this builder.
   *
   * @return the payload length
   */
  int finishInto(ByteSink out, byte type) {
    int start = out.size();
    out.put(buf.array(), 0, buf.size());
    for (int i = 0; i < restartCount; i++) {
      out.putFixed32(restarts[i]);
    }
    out.putFixed32(restartCount);
    int payload = out.size() - start;
    TableFormat.seal(out, start, type);
    reset();
    return payload;
  }
}
