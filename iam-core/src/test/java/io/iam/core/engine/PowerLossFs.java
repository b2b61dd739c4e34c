package io.iam.core.engine;

import io.iam.core.fs.ForwardingFs;
import io.iam.core.fs.ForwardingFsFile;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A file system that can lose power, for tests. Per file it keeps the bytes its last sync made
 * durable and the writes and truncations made since. {@link #cut()} turns the power off: every
 * later call fails. {@link #restore} then rewrites each file as a power cut may leave it: its
 * durable bytes with some of the later changes applied in order. For a table file ({@code .mst})
 * that is a random subset, since the kernel writes dirty pages back in any order: the table's
 * commit protocol must not depend on that order. For the logs and the manifest, which only
 * append, it is a random prefix (a torn tail): a hole inside a log is reported as corruption by the
 * default recovery mode, which is a different test. A file never synced starts from nothing.
 *
 * <p>Directory operations (create, rename, delete) count as durable at once: the model is about
 * the order of data and syncs within files, which is what a table's commit protocol, the log and
 * the manifest rely on.
 */
final class PowerLossFs extends ForwardingFs {

  /** A write or a truncation not yet synced. */
  private record Change(long position, byte[] data, long truncateTo) {
    void applyTo(ByteBuffer[] image) {
      if (data == null) {
        image[0] = resized(image[0], truncateTo);
      } else {
        long end = position + data.length;
        if (image[0].capacity() < end) {
          image[0] = resized(image[0], end);
        }
        image[0].put((int) position, data);
      }
    }
  }

  private static final class State {
    byte[] durable;
    final List<Change> pending = new ArrayList<>();

    State(byte[] durable) {
      this.durable = durable;
    }
  }

  private final Map<Path, State> files = new HashMap<>();
  private volatile boolean off;

  PowerLossFs(Fs delegate) {
    super(delegate);
  }

  boolean isOff() {
    return off;
  }

  /** Turns the power off: every later call fails with an {@link IOException}. */
  void cut() {
    off = true;
  }

  private volatile int tableSyncsBeforeCut = -1;

  /**
   * Cuts the power when a table file ({@code .mst}) is about to be synced for the {@code n}-th time
   * from now (n ≥ 1): that sync and every later call fail, and the table's unsynced writes are
   * subject to {@link #restore}.
   */
  void cutAtTableSync(int n) {
    tableSyncsBeforeCut = n;
  }

  private synchronized void countTableSync(Path path) {
    if (tableSyncsBeforeCut > 0 && path.getFileName().toString().endsWith(".mst") && --tableSyncsBeforeCut == 0) {
      off = true;
    }
  }

  /**
   * What {@link #restore} found: table files ({@code .mst}) with changes not yet synced, and the
   * changes it dropped in all files.
   */
  record Dropped(int tablesInFlight, int inAll) {}

  /** Rewrites every file as the cut left it (see the class comment). */
  synchronized Dropped restore(SplittableRandom random) throws IOException {
    int dropped = 0;
    int tablesInFlight = 0;
    for (Map.Entry<Path, State> e : files.entrySet()) {
      if (!delegate.exists(e.getKey())) {
        continue;
      }
      if (!e.getValue().pending.isEmpty() && e.getKey().getFileName().toString().endsWith(".mst")) {
        tablesInFlight++;
      }
      ByteBuffer[] image = {ByteBuffer.wrap(e.getValue().durable.clone())};
      List<Change> pending = e.getValue().pending;
      boolean table = e.getKey().getFileName().toString().endsWith(".mst");
      int prefix = random.nextInt(pending.size() + 1);
      for (int i = 0; i < pending.size(); i++) {
        if (table ? random.nextBoolean() : i < prefix) {
          pending.get(i).applyTo(image);
        } else {
          dropped++;
        }
      }
      try (FsFile f = delegate.open(e.getKey(), Mode.WRITE)) {
        f.truncate(0);
        f.write(0, ByteBuffer.wrap(image[0].array(), 0, image[0].capacity()));
        f.sync();
      }
    }
    return new Dropped(tablesInFlight, dropped);
  }

  private void check() throws IOException {
    if (off) {
      throw new IOException("the power is off");
    }
  }

  @Override
  public FsFile open(Path path, Mode mode) throws IOException {
    check();
    FsFile file = delegate.open(path, mode);
    synchronized (this) {
      if (mode == Mode.CREATE_NEW) {
        files.put(path, new State(new byte[0]));
      } else if (!files.containsKey(path)) {
        files.put(path, new State(readAll(file)));
      }
    }
    return new ForwardingFsFile(file) {
      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        check();
        super.readFully(position, dst);
      }

      @Override
      public void write(long position, ByteBuffer src) throws IOException {
        check();
        byte[] data = new byte[src.remaining()];
        src.duplicate().get(data);
        synchronized (PowerLossFs.this) {
          state(path).pending.add(new Change(position, data, -1));
        }
        super.write(position, src);
      }

      @Override
      public void truncate(long size) throws IOException {
        check();
        synchronized (PowerLossFs.this) {
          state(path).pending.add(new Change(0, null, size));
        }
        super.truncate(size);
      }

      @Override
      public void sync() throws IOException {
        countTableSync(path);
        check();
        super.sync();
        synchronized (PowerLossFs.this) {
          State s = state(path);
          s.durable = readAll(file);
          s.pending.clear();
        }
      }
    };
  }

  private State state(Path path) {
    State s = files.get(path);
    if (s == null) { // renamed away while open: keep watching under the old name
      s = new State(new byte[0]);
      files.put(path, s);
    }
    return s;
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    check();
    super.rename(from, to);
    synchronized (this) {
      State s = files.remove(from);
      if (s != null) {
        files.put(to, s);
      }
    }
  }

  @Override
  public void delete(Path path) throws IOException {
    check();
    super.delete(path);
    synchronized (this) {
      files.remove(path);
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    check();
    super.syncDirectory(dir);
  }

  private static byte[] readAll(FsFile file) throws IOException {
    long size = file.size();
    byte[] all = new byte[Math.toIntExact(size)];
    file.readFully(0, ByteBuffer.wrap(all));
    return all;
  }

  private static ByteBuffer resized(ByteBuffer b, long size) {
    return ByteBuffer.wrap(Arrays.copyOf(b.array(), Math.toIntExact(size)));
  }
}
