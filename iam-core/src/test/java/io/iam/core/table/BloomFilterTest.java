package io.iam.core.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BloomFilterTest {

  private static byte[] key(int i) {
    return ByteBuffer.allocate(8).putInt(0x6b657921).putInt(i).array();
  }

  @Test
  void noFalseNegativesAndUnderOnePercentFalsePositivesAt14BitsPerKey() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      keys.add(key(2 * i));
    }
    BloomFilter f = BloomFilter.build(keys, 14);
    assertEquals(100_000 * 14 / 8 + 1, f.sizeBytes());
    for (byte[] k : keys) {
      assertTrue(f.mayContain(k));
    }
    int falsePositives = 0;
    for (int i = 0; i < 100_000; i++) {
      if (f.mayContain(key(2 * i + 1))) {
        falsePositives++;
      }
    }
    assertTrue(falsePositives < 1_000, "false positives: " + falsePositives + " of 100000");
  }

  @Test
  void variableLengthKeysHaveNoFalseNegatives() {
    Random r = new Random(3);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      byte[] k = new byte[r.nextInt(40)];
      r.nextBytes(k);
      keys.add(k);
    }
    for (int bits : new int[] {1, 5, 10, 14, 64}) {
      BloomFilter f = BloomFilter.build(keys, bits);
      for (byte[] k : keys) {
        assertTrue(f.mayContain(k), "bits per key " + bits);
      }
    }
  }

  @Test
  void fewerBitsMeanMoreFalsePositives() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(key(2 * i));
    }
    int fp4 = 0;
    int fp14 = 0;
    BloomFilter f4 = BloomFilter.build(keys, 4);
    BloomFilter f14 = BloomFilter.build(keys, 14);
    for (int i = 0; i < 20_000; i++) {
      fp4 += f4.mayContain(key(2 * i + 1)) ? 1 : 0;
      fp14 += f14.mayContain(key(2 * i + 1)) ? 1 : 0;
    }
    assertTrue(fp4 > 5 * fp14, fp4 + " vs " + fp14);
    assertTrue(fp4 > 1_000, "4 bits/key gives roughly 15% false positives: " + fp4);
  }

  @Test
  void probesAreRoundedBitsTimesLn2Clamped() {
    assertEquals(10, BloomFilter.probes(14));
    assertEquals(7, BloomFilter.probes(10));
    assertEquals(1, BloomFilter.probes(1));
    assertEquals(30, BloomFilter.probes(64));
    assertEquals(10, BloomFilter.build(List.of(key(1)), 14).toBytes()[64 / 8]);
  }

  @Test
  void hashIsMurmur3x86With32BitOutput() {
    // The hash is part of the file format; pin it to an independent implementation.
    Random r = new Random(11);
    for (int len = 0; len < 40; len++) {
      byte[] b = new byte[len + 3];
      r.nextBytes(b);
      int expected = Hashing.murmur3_32_fixed(0xbc9f1d34).hashBytes(b, 3, len).asInt();
      assertEquals(expected, BloomFilter.hash(b, 3, len), "length " + len);
    }
  }

  @Test
  void bitPositionsAreTheFormatsHashModuloTheBitCount() {
    // The probe positions are part of the file format: pin them to the format's definition
    // (double hashing, each position the unsigned hash modulo the bit count), computed here with a
    // plain division, for filters of several sizes.
    Random r = new Random(5);
    for (int n : new int[] {1, 7, 100, 3_001}) {
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] k = new byte[8 + r.nextInt(17)];
        r.nextBytes(k);
        keys.add(k);
      }
      for (int bitsPerKey : new int[] {3, 10, 14}) {
        long bits = 8 * ((Math.max(64L, (long) n * bitsPerKey) + 7) / 8);
        byte[] expected = new byte[(int) (bits / 8) + 1];
        int k = BloomFilter.probes(bitsPerKey);
        expected[expected.length - 1] = (byte) k;
        for (byte[] key : keys) {
          int h = BloomFilter.hash(key, 0, key.length);
          int delta = Integer.rotateRight(h, 17);
          for (int j = 0; j < k; j++) {
            long bit = Integer.toUnsignedLong(h) % bits;
            expected[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
            h += delta;
          }
        }
        BloomFilter f = BloomFilter.build(keys, bitsPerKey);
        assertArrayEquals(expected, f.toBytes(), n + " keys, " + bitsPerKey + " bits per key");
        for (int i = 0; i < 2_000; i++) { // and a probe reads exactly those positions
          byte[] probe = new byte[12];
          r.nextBytes(probe);
          assertEquals(referenceMayContain(expected, probe), f.mayContain(probe));
        }
      }
    }
  }

  private static boolean referenceMayContain(byte[] data, byte[] key) {
    long bits = 8L * (data.length - 1);
    int h = BloomFilter.hash(key, 0, key.length);
    int delta = Integer.rotateRight(h, 17);
    for (int j = 0; j < data[data.length - 1]; j++) {
      long bit = Integer.toUnsignedLong(h) % bits;
      if ((data[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        return false;
      }
      h += delta;
    }
    return true;
  }

  @Test
  void serializedFilterAnswersTheSame() {
    List<byte[]> keys = List.of(key(1), key(2), key(3));
    BloomFilter f = BloomFilter.build(keys, 10);
    BloomFilter g = BloomFilter.fromBytes(f.toBytes());
    assertArrayEquals(f.toBytes(), g.toBytes());
    for (int i = 0; i < 1000; i++) {
      assertEquals(f.mayContain(key(i)), g.mayContain(key(i)));
    }
    assertTrue(g.mayContain(key(2)));
  }

  @Test
  void emptyBuilderRejectsEverythingAndUnknownEncodingAcceptsEverything() {
    BloomFilter empty = BloomFilter.builder(10).build();
    assertFalse(empty.mayContain(key(5)));
    byte[] unknown = new byte[9];
    unknown[8] = 31;
    assertTrue(BloomFilter.fromBytes(unknown).mayContain(key(5)));
  }

  @Test
  void invalidArgumentsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> BloomFilter.builder(0));
    assertThrows(IllegalArgumentException.class, () -> BloomFilter.builder(65));
    assertThrows(IllegalArgumentException.class, () -> BloomFilter.fromBytes(new byte[1]));
  }
}
