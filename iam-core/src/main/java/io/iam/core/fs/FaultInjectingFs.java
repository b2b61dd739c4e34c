package io.iam.core.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;

/**
 * Wraps a file system and fails the operations a rule picks, like Pebble's {@code errorfs} and
 * RocksDB's {@code FaultInjectionTestFS}. The rule sees the operation and the path; a failed
 * operation throws {@link InjectedFault} (an {@link IOException}), or with {@link
 * #failUncheckedWhen} an {@link InjectedBug} (a bug's unchecked exception), and has no effect.
 * Thread-safe; the rule can be changed while a store runs.
 */
public final class FaultInjectingFs extends ForwardingFs {

  /** The operations a rule can fail. */
  public enum Op {
    OPEN, WRITE, SYNC, TRUNCATE, RENAME, DELETE, SYNC_DIRECTORY
  }

  /** The exception an injected fault throws. */
  public static final class InjectedFault extends IOException {
    private static final long serialVersionUID = 1L;

    InjectedFault(Op op, Path path) {
      super("injected fault: " + op + " " + path);
    }
  }

  /** The unchecked exception an injected bug throws. */
  public static final class InjectedBug extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    InjectedBug(Op op, Path path) {
      super("injected bug: " + op + " " + path);
    }
  }

  /** Which operations fail, and whether they throw {@link InjectedBug} instead of {@link InjectedFault}. */
  private record Rule(BiPredicate<Op, Path> fails, boolean unchecked) {}

  private static final Rule NONE = new Rule((op, path) -> false, false);

  private volatile Rule rule = NONE;
  private final AtomicLong injected = new AtomicLong();

  public FaultInjectingFs(Fs delegate) {
    super(delegate);
  }

  /** Fails every operation for which {@code rule} is true, from now on. */
  public void failWhen(BiPredicate<Op, Path> rule) {
    this.rule = new Rule(rule, false);
  }

  /** Makes every operation for which {@code rule} is true throw {@link InjectedBug}, from now on. */
  public void failUncheckedWhen(BiPredicate<Op, Path> rule) {
    this.rule = new Rule(rule, true);
  }

  /** Stops failing anything. */
  public void heal() {
    this.rule = NONE;
  }

  /** How many faults were injected so far. */
  public long injected() {
    return injected.get();
  }

  private void check(Op op, Path path) throws InjectedFault {
    Rule r = rule;
    if (r.fails().test(op, path)) {
      injected.incrementAndGet();
      if (r.unchecked()) {
        throw new InjectedBug(op, path);
      }
      throw new InjectedFault(op, path);
    }
  }

  @Override
  public FsFile open(Path path, Mode mode) throws IOException {
    check(Op.OPEN, path);
    return super.open(path, mode);
  }

  @Override
  protected FsFile wrap(Path path, FsFile file) {
    return new ForwardingFsFile(file) {
      @Override
      public void write(long position, ByteBuffer src) throws IOException {
        check(Op.WRITE, path);
        super.write(position, src);
      }

      @Override
      public void sync() throws IOException {
        check(Op.SYNC, path);
        super.sync();
      }

      @Override
      public void truncate(long size) throws IOException {
        check(Op.TRUNCATE, path);
        super.truncate(size);
      }
    };
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    check(Op.RENAME, from);
    super.rename(from, to);
  }

  @Override
  public void delete(Path path) throws IOException {
    check(Op.DELETE, path);
    super.delete(path);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    check(Op.SYNC_DIRECTORY, dir);
    super.syncDirectory(dir);
  }
}
