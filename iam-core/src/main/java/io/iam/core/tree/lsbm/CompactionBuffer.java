package io.iam.core.tree.lsbm;

import io.iam.core.key.KeyComparator;
import io.iam.core.tree.FileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The compaction buffer of a leveled tree: per level i ≥ 1 a list B_i of files that were in
 * C_{i-1} when they were merged into C_i, newest first, and the {@link Fence}s that say for which
 * keys a file no longer shows what C_i holds. Immutable; a {@link io.iam.core.tree.Version} holds
 * one, so readers see the buffer that matches the levels they read.
 *
 * <p><b>Invariant</b> (what makes buffered reads return the newest version): for a key k and a
 * level i, take the buffer files of B_i whose range covers k and that no later fence covers at
 * k ({@link #usable}). If any of them holds k, the newest version among them is the newest
 * version of k in C_i, or a deletion C_i has dropped at the bottom. Every way the newest version
 * of k in C_i can change either appends the file carrying it (a buffered merge), or fences k (a
 * move, a merge into a frozen list, a file leaving C_i, the removal of a buffer file, which fences
 * the older files over its range).
 */
public final class CompactionBuffer {

  /** What the last {@link #apply} did, for the statistics. */
  public record Outcome(int appended, int frozenMerges, int retired, int paced, int trimmed) {
    static final Outcome NONE = new Outcome(0, 0, 0, 0, 0);
  }

  private final KeyComparator user;
  private final List<List<BufferFile>> files;
  private final List<List<Fence>> fences;
  private final boolean[] frozen;
  /** Per level, bytes that left C_i since B_i froze. */
  private final long[] movedSinceFreeze;
  private final long epoch;
  private final Outcome outcome;

  private CompactionBuffer(KeyComparator user, List<List<BufferFile>> files, List<List<Fence>> fences, boolean[] frozen,
      long[] movedSinceFreeze, long epoch, Outcome outcome) {
    this.user = user;
    List<List<BufferFile>> f = new ArrayList<>();
    files.forEach(l -> f.add(List.copyOf(l)));
    this.files = List.copyOf(f);
    List<List<Fence>> g = new ArrayList<>();
    fences.forEach(l -> g.add(List.copyOf(l)));
    this.fences = List.copyOf(g);
    this.frozen = frozen.clone();
    this.movedSinceFreeze = movedSinceFreeze.clone();
    this.epoch = epoch;
    this.outcome = outcome;
  }

  /** An empty buffer of {@code levels} levels. */
  public static CompactionBuffer empty(KeyComparator user, int levels) {
    List<List<BufferFile>> files = new ArrayList<>();
    List<List<Fence>> fences = new ArrayList<>();
    for (int i = 0; i < levels; i++) {
      files.add(List.of());
      fences.add(List.of());
    }
    return new CompactionBuffer(user, files, fences, new boolean[levels], new long[levels], 0, Outcome.NONE);
  }

  public int numLevels() {
    return files.size();
  }

  /** B_{@code level}, newest first. */
  public List<BufferFile> files(int level) {
    return files.get(level);
  }

  /** The fences of level {@code level}. */
  public List<Fence> fences(int level) {
    return fences.get(level);
  }

  public boolean frozen(int level) {
    return frozen[level];
  }

  public long bytes(int level) {
    return files.get(level).stream().mapToLong(b -> b.file().fileSize()).sum();
  }

  public boolean isEmpty() {
    return files.stream().allMatch(List::isEmpty);
  }

  /** Every buffer file of every level. */
  public List<FileMeta> allFiles() {
    List<FileMeta> out = new ArrayList<>();
    files.forEach(l -> l.forEach(b -> out.add(b.file())));
    return out;
  }

  /** The buffer's counter: the epoch of its newest file or fence. */
  public long epoch() {
    return epoch;
  }

  public Outcome outcome() {
    return outcome;
  }

  /** Whether {@code b} of level {@code level} may answer for {@code userKey}: no later fence covers it. */
  public boolean usable(int level, BufferFile b, byte[] userKey) {
    for (Fence f : fences.get(level)) {
      if (f.epoch() > b.epoch() && (f.lo() == null || user.compare(f.lo(), userKey) <= 0)
          && (f.hi() == null || user.compare(f.hi(), userKey) >= 0)) {
        return false;
      }
    }
    return true;
  }

  /** The files of B_{@code level} that cover {@code userKey} and may answer for it, newest first. */
  public List<BufferFile> candidates(int level, byte[] userKey) {
    List<BufferFile> out = new ArrayList<>();
    if (level <= 0 || level >= files.size()) {
      return out;
    }
    for (BufferFile b : files.get(level)) {
      if (user.compare(b.lo(), userKey) <= 0 && user.compare(b.hi(), userKey) >= 0 && usable(level, b, userKey)) {
        out.add(b);
      }
    }
    return out;
  }

  /**
   * The buffer after {@code change}: removals (each fences the older files over its range), the
   * change's fences, the files moved down (appended, or fenced if B_{i+1} is frozen or they were
   * moved without a merge), freezing and unfreezing, then retiring files every later fence covers
   * entirely, then the pace: while B_i exceeds its cap, the file with the smallest maximum key
   * goes. Finally fences no file is older than are dropped.
   */
  public CompactionBuffer apply(BufferChange change) {
    int n = files.size();
    List<List<BufferFile>> fs = new ArrayList<>();
    List<List<Fence>> gs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fs.add(new ArrayList<>(files.get(i)));
      gs.add(new ArrayList<>(fences.get(i)));
    }
    boolean[] fr = frozen.clone();
    long[] moved = movedSinceFreeze.clone();
    long e = epoch;
    int trimmed = 0;
    for (BufferChange.Removal r : change.removals()) {
      BufferFile b = find(fs.get(r.level()), r.fileNumber());
      if (b != null) {
        fs.get(r.level()).remove(b);
        gs.get(r.level()).add(new Fence(b.lo(), b.hi(), b.epoch()));
        trimmed++;
      }
    }
    for (BufferChange.LevelFence f : change.fences()) {
      if (f.level() > 0 && f.level() < n) {
        gs.get(f.level()).add(new Fence(f.lo(), f.hi(), ++e));
      }
    }
    int appended = 0;
    int frozenMerges = 0;
    int in = change.level();
    int out = in + 1;
    if (in >= 0 && out < n && !change.movedDown().isEmpty()) {
      long left = change.movedDown().stream().mapToLong(FileMeta::fileSize).sum();
      if (in > 0 && fr[in]) {
        moved[in] += left;
        if (moved[in] >= change.config().targetBytes(in)) {
          fr[in] = false; // C_i has turned over once since B_i froze: it serves again (§4.1)
          moved[in] = 0;
        }
      }
      if (change.merged() && change.bytesIn() > 0 && change.bytesOut() < (1 - change.config().freezeShrink()) * change.bytesIn()) {
        fr[out] = true; // repeated data reached C_{i+1}: its buffered copies would be obsolete
        moved[out] = 0;
      }
      List<FileMeta> down = new ArrayList<>(change.movedDown());
      down.sort(Comparator.comparingLong(FileMeta::largestSequence)); // older data gets the older epoch
      for (FileMeta f : down) {
        BufferFile b = BufferFile.of(f, ++e);
        if (change.merged() && !fr[out]) {
          fs.get(out).add(0, b);
          appended++;
        } else {
          gs.get(out).add(new Fence(b.lo(), b.hi(), e));
          if (change.merged()) {
            frozenMerges++;
          }
        }
      }
    }
    int retired = 0;
    int paced = 0;
    for (int level = 1; level < n; level++) {
      List<BufferFile> l = fs.get(level);
      List<Fence> g = gs.get(level);
      retired += l.size();
      l.removeIf(b -> fullyFenced(b, g));
      retired -= l.size();
      long cap = change.config().capBytes(level);
      long bytes = l.stream().mapToLong(b -> b.file().fileSize()).sum();
      while (bytes > cap && !l.isEmpty()) {
        BufferFile victim = l.get(0);
        for (BufferFile b : l) {
          if (user.compare(b.hi(), victim.hi()) < 0) {
            victim = b;
          }
        }
        l.remove(victim);
        g.add(new Fence(victim.lo(), victim.hi(), victim.epoch()));
        bytes -= victim.file().fileSize();
        paced++;
      }
      long oldest = l.stream().mapToLong(BufferFile::epoch).min().orElse(Long.MAX_VALUE);
      g.removeIf(f -> f.epoch() <= oldest);
    }
    return new CompactionBuffer(user, fs, gs, fr, moved, e, new Outcome(appended, frozenMerges, retired, paced, trimmed));
  }

  private static BufferFile find(List<BufferFile> l, long fileNumber) {
    for (BufferFile b : l) {
      if (b.fileNumber() == fileNumber) {
        return b;
      }
    }
    return null;
  }

  /** Whether fences later than {@code b} cover its whole range (no key left it may answer for). */
  private boolean fullyFenced(BufferFile b, List<Fence> g) {
    List<Fence> later = new ArrayList<>();
    for (Fence f : g) {
      if (f.epoch() > b.epoch() && (f.lo() == null || user.compare(f.lo(), b.hi()) <= 0)
          && (f.hi() == null || user.compare(f.hi(), b.lo()) >= 0)) {
        later.add(f);
      }
    }
    later.sort((x, y) -> x.lo() == null ? (y.lo() == null ? 0 : -1) : y.lo() == null ? 1 : user.compare(x.lo(), y.lo()));
    byte[] reach = null;
    for (Fence f : later) {
      byte[] need = reach == null ? b.lo() : reach;
      if (f.lo() != null && user.compare(f.lo(), need) > 0) {
        return false;
      }
      if (f.hi() == null) {
        return true;
      }
      if (reach == null || user.compare(f.hi(), reach) > 0) {
        reach = f.hi();
      }
      if (user.compare(reach, b.hi()) >= 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < files.size(); i++) {
      if (!files.get(i).isEmpty() || frozen[i]) {
        sb.append("B").append(i).append(files.get(i)).append(frozen[i] ? "(frozen) " : " ");
      }
    }
    return sb.toString().trim();
  }
}
