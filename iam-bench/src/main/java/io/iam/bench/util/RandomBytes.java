package io.iam.bench.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/** Pseudo-random bytes for benchmark values, made cheaply: the client shares the machine it measures. */
public final class RandomBytes {

  private static final VarHandle LONG_LITTLE_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private RandomBytes() {}

  /**
   * Fills {@code bytes} with exactly what {@code random.nextBytes(bytes)} puts there (each
   * {@code nextLong}'s bytes, least significant first), eight bytes per store instead of one.
   * Byte-at-a-time filling took about a third of the load client's CPU.
   */
  public static void fill(SplittableRandom random, byte[] bytes) {
    int i = 0;
    for (int words = bytes.length >> 3; words > 0; words--, i += 8) {
      LONG_LITTLE_ENDIAN.set(bytes, i, random.nextLong());
    }
    if (i < bytes.length) {
      for (long rnd = random.nextLong(); i < bytes.length; rnd >>>= Byte.SIZE) {
        bytes[i++] = (byte) rnd;
      }
    }
  }
}
