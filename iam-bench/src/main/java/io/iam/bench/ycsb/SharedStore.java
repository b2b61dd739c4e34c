package io.iam.bench.ycsb;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.LoadTargets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open store per directory per JVM, shared by reference count. YCSB creates one {@link
 * site.ycsb.DB} per client thread and calls {@code init()} and {@code cleanup()} on each; every
 * {@link StoreDb} {@link #acquire}s the store of its directory in {@code init()} and {@link
 * #release}s it in {@code cleanup()}, and the last release closes it. {@code iam ycsb} holds a
 * reference of its own around both phases, so the store stays open from the load to the report.
 *
 * <p>The store is opened with {@link LoadTargets}, as {@code iam load} opens it, so an engine name
 * and its budgets mean the same in both commands. Every method is thread-safe.
 */
public final class SharedStore {

  /** Update locks: a read-modify-write of one key holds one of these, chosen by the key's hash. */
  private static final int UPDATE_STRIPES = 64;

  private static final Map<Path, SharedStore> OPEN = new HashMap<>();

  private final Path dir;
  private final LoadConfig config;
  private final LoadTarget target;
  private final ReentrantLock[] stripes = new ReentrantLock[UPDATE_STRIPES];
  private int references;
  private volatile String firstError;

  private SharedStore(Path dir, LoadConfig config, LoadTarget target) {
    this.dir = dir;
    this.config = config;
    this.target = target;
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /**
   * The store open in {@code dir}, with one more reference; opened (and {@code dir} created) with
   * {@code config} if nobody holds it.
   *
   * @throws IllegalStateException if the store is open under another engine name
   * @throws IllegalArgumentException if no engine has the name {@code config.tree()}
   */
  public static SharedStore acquire(Path dir, LoadConfig config) throws IOException {
    Path key = dir.toAbsolutePath().normalize();
    synchronized (OPEN) {
      SharedStore s = OPEN.get(key);
      if (s == null) {
        Files.createDirectories(key);
        s = new SharedStore(key, config, LoadTargets.open(key, config));
        OPEN.put(key, s);
      } else if (!s.config.tree().equals(config.tree())) {
        throw new IllegalStateException(key + " is open as '" + s.config.tree() + "', not '" + config.tree() + "'");
      }
      s.references++;
      return s;
    }
  }

  /** Drops one reference; the last one closes the store. Releasing more often than acquiring fails. */
  public void release() throws IOException {
    synchronized (OPEN) {
      if (references == 0) {
        throw new IllegalStateException(dir + " released more often than acquired");
      }
      if (--references > 0) {
        return;
      }
      OPEN.remove(dir);
    }
    target.close();
  }

  /** How many references are held; 0 once closed. */
  public int references() {
    synchronized (OPEN) {
      return references;
    }
  }

  /** Whether a store is open in {@code dir} in this JVM. */
  public static boolean isOpen(Path dir) {
    synchronized (OPEN) {
      return OPEN.containsKey(dir.toAbsolutePath().normalize());
    }
  }

  /** Keeps the first failure a binding met, for the report; later ones only count. */
  void recordError(String operation, Exception e) {
    synchronized (this) {
      if (firstError == null) {
        firstError = operation + ": " + e;
      }
    }
  }

  /** The first failure a binding met ("update: java.io.IOException: ..."), or null if none. */
  public String firstError() {
    return firstError;
  }

  /** The store itself. */
  public LoadTarget target() {
    return target;
  }

  /** What it was opened with. */
  public LoadConfig config() {
    return config;
  }

  /**
   * The lock a read-modify-write of {@code key} holds, so that two threads updating different
   * fields of one record both keep their field; other keys mostly take other locks.
   */
  ReentrantLock updateLock(byte[] key) {
    return stripes[Math.floorMod(Arrays.hashCode(key), stripes.length)];
  }
}
