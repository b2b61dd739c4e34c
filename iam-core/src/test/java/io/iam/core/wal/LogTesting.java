package io.iam.core.wal;

import static io.iam.core.wal.LogFormat.BLOCK_SIZE;
import static io.iam.core.wal.LogFormat.HEADER_SIZE;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.fs.LocalFs;
import io.iam.core.util.Checksums;
import io.iam.core.util.Coding;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Helpers shared by the log tests: payloads, an independent model of the layout, file surgery. */
final class LogTesting {

  static final Fs FS = LocalFs.INSTANCE;

  private LogTesting() {}

  /** Deterministic pseudo-random bytes. */
  static byte[] payload(long seed, int len) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + len);
    byte[] b = new byte[len];
    for (int i = 0; i < len; ) {
      long v = r.nextLong();
      for (int k = 0; k < 8 && i < len; k++, i++) {
        b[i] = (byte) (v >>> (8 * k));
      }
    }
    return b;
  }

  /** One fragment as the format places it: header offset, payload length, type. */
  record Fragment(long offset, int length, int type) {
    long end() {
      return offset + HEADER_SIZE + length;
    }

    boolean covers(long pos) {
      return pos >= offset && pos < end();
    }
  }

  /** Where a record's fragments lie. {@code start} is its first header, {@code end} just past it. */
  record Placed(List<Fragment> fragments) {
    long start() {
      return fragments.get(0).offset();
    }

    long end() {
      return fragments.get(fragments.size() - 1).end();
    }
  }

  /**
   * An independent model of the layout: the fragments of records of the given lengths written from
   * {@code offset}. Written from the format description, not from {@link LogWriter}.
   */
  static List<Placed> layout(long offset, List<Integer> lengths) {
    List<Placed> out = new ArrayList<>();
    long pos = offset;
    for (int len : lengths) {
      List<Fragment> frags = new ArrayList<>();
      int left = len;
      boolean first = true;
      do {
        long inBlock = pos % BLOCK_SIZE;
        if (BLOCK_SIZE - inBlock < HEADER_SIZE) {
          pos += BLOCK_SIZE - inBlock; // zero trailer
          inBlock = 0;
        }
        int room = (int) (BLOCK_SIZE - inBlock - HEADER_SIZE);
        int n = Math.min(room, left);
        left -= n;
        int type = first && left == 0 ? LogFormat.FULL_TYPE
            : first ? LogFormat.FIRST_TYPE : left == 0 ? LogFormat.LAST_TYPE : LogFormat.MIDDLE_TYPE;
        frags.add(new Fragment(pos, n, type));
        pos += HEADER_SIZE + n;
        first = false;
      } while (left > 0);
      out.add(new Placed(frags));
    }
    return out;
  }

  /** The fragment that holds byte {@code pos}, or null if {@code pos} is in a block trailer. */
  static Fragment fragmentAt(List<Placed> layout, long pos) {
    for (Placed p : layout) {
      for (Fragment f : p.fragments()) {
        if (f.covers(pos)) {
          return f;
        }
      }
    }
    return null;
  }

  /** Index of the record that holds byte {@code pos}, or -1. */
  static int recordAt(List<Placed> layout, long pos) {
    for (int i = 0; i < layout.size(); i++) {
      for (Fragment f : layout.get(i).fragments()) {
        if (f.covers(pos)) {
          return i;
        }
      }
    }
    return -1;
  }

  /** Writes the records to a new file and returns the writer's final size. */
  static long writeLog(Path path, List<byte[]> records) throws IOException {
    try (LogWriter w = new LogWriter(FS.open(path, Fs.Mode.CREATE_NEW), path, 0)) {
      for (byte[] r : records) {
        w.addRecord(r);
      }
      w.sync();
      return w.size();
    }
  }

  /** What a reader returned and reported. */
  record ReadResult(List<byte[]> records, long validLength, boolean tornTail, long droppedBytes) {}

  static ReadResult readAll(Path path, RecoveryMode mode) throws IOException {
    try (LogReader r = new LogReader(FS.open(path, Fs.Mode.READ), path, mode)) {
      List<byte[]> out = new ArrayList<>();
      for (byte[] rec; (rec = r.next()) != null; ) {
        out.add(rec);
      }
      // The end is sticky.
      if (r.next() != null) {
        throw new AssertionError("next() returned a record after returning null");
      }
      return new ReadResult(out, r.validLength(), r.tornTail(), r.droppedBytes());
    }
  }

  static byte[] bytes(Path path) throws IOException {
    return Files.readAllBytes(path);
  }

  static void put(Path path, byte[] content) throws IOException {
    Files.write(path, content);
  }

  static void truncate(Path path, long size) throws IOException {
    try (FsFile f = FS.open(path, Fs.Mode.WRITE)) {
      f.truncate(size);
    }
  }

  static void appendZeros(Path path, int n) throws IOException {
    try (FsFile f = FS.open(path, Fs.Mode.WRITE)) {
      f.write(f.size(), ByteBuffer.allocate(n));
    }
  }

  static boolean allZero(byte[] b, long from, long to) {
    for (long i = from; i < to; i++) {
      if (b[(int) i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** A hand-built fragment with a correct checksum. */
  static byte[] fragment(int type, byte[] payload) {
    byte[] out = new byte[HEADER_SIZE + payload.length];
    Coding.putFixed32(out, 0, Checksums.mask(Checksums.crc32c((byte) type, payload, 0, payload.length)));
    out[4] = (byte) payload.length;
    out[5] = (byte) (payload.length >>> 8);
    out[6] = (byte) type;
    System.arraycopy(payload, 0, out, HEADER_SIZE, payload.length);
    return out;
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
