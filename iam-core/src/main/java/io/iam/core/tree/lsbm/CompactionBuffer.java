package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferDiff;
import io.iam.core.manifest.BufferFile;
import io.iam.core.manifest.KeyFilter;
import io.iam.core.manifest.LevelBuffers;
import io.iam.core.manifest.Version;

import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import io.iam.core.manifest.FileMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The compaction buffer of a leveled tree (with gear levels, {@link io.iam.core.tree.GearPicker},
 * each half C_i and C_i′ is a level, and so each of B_i and B_i′ is a list): per level i ≥ 1 a list B_i of files that were inputs
 * of merges into C_i, newest first, and for the files of the levels (and some buffer files) their
 * <em>sources</em>: the buffer files they were merged from, newest data first. Immutable; a {@link
 * io.iam.core.manifest.Version} holds one, so readers see the buffer that matches the levels they read.
 *
 * <p><b>Invariant</b> (what makes buffered reads return the newest version): a file x with
 * sources was written by a merge of exactly those files (or of files that were themselves merged
 * from them), so for every key k, x's version of k is the version of k in the first of x's
 * sources, walking them newest data first, that holds k; if none does, x holds no version of k.
 * (Two exceptions that read the same: a merge at the bottom drops a deletion, and then nothing
 * older is left below; and older versions a snapshot needed, which buffered reads never ask for.)
 * A source that has been removed from the buffer (trim, cap) stays in the lists as a marker with
 * its key range and Bloom filters: a read that reaches it for a key it may hold must read x itself.
 * The paper keeps a removed file's minimum and maximum key for the same purpose (§4.1, Algorithm 3
 * line 15).
 */
public final class CompactionBuffer implements LevelBuffers {

  /** What the last {@link #apply} did, for the statistics. */
  public record Outcome(int appended, int frozenMerges, int retired, int paced, int trimmed) {
    static final Outcome NONE = new Outcome(0, 0, 0, 0, 0);
  }

  private final KeyComparator user;
  private final List<List<BufferFile>> files;
  /** By file number (a file of the levels or of the buffer): the files it was merged from, newest data first. */
  private final Map<Long, List<BufferFile>> sources;
  /** {@link SourceIndex}es of {@link #sources}' lists, built as reads ask for them. */
  private final Map<Long, SourceIndex> indexes = new ConcurrentHashMap<>();
  /** Numbers of every file in {@link #files}. */
  private final Set<Long> present;
  private final boolean[] frozen;
  /** Per level, bytes that left C_i since B_i froze. */
  private final long[] movedSinceFreeze;
  /**
   * Gear levels ({@link LsbmConfig#gear()}), per C_i′ level: {@code pace[C_AT_MOVE]} and {@code
   * pace[B_AT_MOVE]}, the bytes of C_i′ and of B_i′ when the gear move made them (0: not known, as
   * after a restart: then B_i′ is held to the plain cap), and {@code pace[DRAINED]}, the bytes C_i′
   * has merged down since.
   */
  private final long[][] pace;

  private static final int C_AT_MOVE = 0;
  private static final int B_AT_MOVE = 1;
  private static final int DRAINED = 2;
  private final long epoch;
  private final Outcome outcome;

  private CompactionBuffer(KeyComparator user, List<List<BufferFile>> files, Map<Long, List<BufferFile>> sources,
      boolean[] frozen, long[] movedSinceFreeze, long[][] pace, long epoch, Outcome outcome) {
    this.user = user;
    List<List<BufferFile>> f = new ArrayList<>();
    Set<Long> p = new HashSet<>();
    files.forEach(l -> {
      f.add(List.copyOf(l));
      l.forEach(b -> p.add(b.fileNumber()));
    });
    this.files = List.copyOf(f);
    this.present = Set.copyOf(p);
    Map<Long, List<BufferFile>> s = new HashMap<>();
    sources.forEach((k, v) -> s.put(k, List.copyOf(v)));
    this.sources = Map.copyOf(s);
    this.frozen = frozen.clone();
    this.movedSinceFreeze = movedSinceFreeze.clone();
    this.pace = new long[][] {pace[0].clone(), pace[1].clone(), pace[2].clone()};
    this.epoch = epoch;
    this.outcome = outcome;
  }

  /** An empty buffer of {@code levels} levels. */
  public static CompactionBuffer empty(KeyComparator user, int levels) {
    List<List<BufferFile>> files = new ArrayList<>();
    for (int i = 0; i < levels; i++) {
      files.add(List.of());
    }
    return new CompactionBuffer(user, files, Map.of(), new boolean[levels], new long[levels], noPace(levels), 0, Outcome.NONE);
  }

  private static long[][] noPace(int levels) {
    return new long[][] {new long[levels], new long[levels], new long[levels]};
  }

  /**
   * The most bytes B_{@code level} may hold now: for a C_i′ level of gear levels whose start is
   * known, B_i′'s bytes at the gear move times the fraction of C_i′ not yet merged down (the
   * paper's |B_i′| / S_i′ = |C_i′| / S_i, Algorithm 1 lines 18–20); otherwise {@link
   * LsbmConfig#capBytes}.
   */
  public long capBytes(int level, LsbmConfig config) {
    return cap(pace, level, config);
  }

  private static long cap(long[][] pace, int level, LsbmConfig config) {
    long start = level < pace[C_AT_MOVE].length ? pace[C_AT_MOVE][level] : 0;
    if (config.gear() && start > 0) {
      long left = Math.max(0, start - pace[DRAINED][level]);
      return (long) ((double) pace[B_AT_MOVE][level] * left / start);
    }
    return config.capBytes(level);
  }

  /** The user-key order the buffer's ranges are in. */
  public KeyComparator userComparator() {
    return user;
  }

  public int numLevels() {
    return files.size();
  }

  /** B_{@code level}, newest first. */
  public List<BufferFile> files(int level) {
    return files.get(level);
  }

  public boolean frozen(int level) {
    return frozen[level];
  }

  public long bytes(int level) {
    return files.get(level).stream().mapToLong(b -> b.file().fileSize()).sum();
  }

  public boolean isEmpty() {
    return present.isEmpty();
  }

  /** Whether file {@code fileNumber} is in a buffer list (false once removed). */
  public boolean contains(long fileNumber) {
    return present.contains(fileNumber);
  }

  /** Every buffer file of every level. */
  @Override
  public List<FileMeta> allFiles() {
    List<FileMeta> out = new ArrayList<>();
    files.forEach(l -> l.forEach(b -> out.add(b.file())));
    return out;
  }

  /** The buffer's counter: the epoch of its newest file. */
  public long epoch() {
    return epoch;
  }

  public Outcome outcome() {
    return outcome;
  }

  /** The files {@code fileNumber} was merged from, newest data first (removed ones included); empty if none are known. */
  public List<BufferFile> sources(long fileNumber) {
    return sources.getOrDefault(fileNumber, List.of());
  }

  /**
   * The sources of file {@code fileNumber} whose range covers {@code userKey}, newest data first,
   * removed ones included (check {@link #contains}); null if the file has no sources and must be
   * read itself.
   */
  public List<BufferFile> sourcesCovering(long fileNumber, byte[] userKey) {
    SourceIndex index = sourceIndex(fileNumber);
    return index == null ? null : Arrays.stream(index.covering(userKey)).map(SourceIndex.Source::file).toList();
  }

  /**
   * The index of file {@code fileNumber}'s sources as this buffer holds them, for reads (built on
   * first use); null if the file has no sources and must be read itself.
   */
  public SourceIndex sourceIndex(long fileNumber) {
    SourceIndex index = indexes.get(fileNumber);
    if (index == null) {
      List<BufferFile> all = sources.get(fileNumber);
      if (all == null) {
        return null;
      }
      index = SourceIndex.of(all, this);
      indexes.putIfAbsent(fileNumber, index); // two readers may build it at once: either result serves
    }
    return index;
  }

  /**
   * The buffer after {@code change}:
   * <ol>
   *   <li>removals (trim);
   *   <li>a gear move ({@link BufferChange#shift}): B_i becomes B_i′, a new B_i starts empty and
   *       unfrozen, and the pace of B_i′ starts from the sizes of both halves; or
   *   <li>a merge into C_{i+1} (unless B_{i+1} is frozen): each input whose sources are all still
   *       in the buffer, none in a draining B_j′, is replaced by them; every other input is
   *       appended to B_{i+1}. Each output gets the resulting files that overlap it as its sources;
   *   <li>freezing and unfreezing;
   *   <li>the pace: while B_i exceeds {@link #capBytes}, the file with the smallest maximum key goes;
   *   <li>files no sources list refers to any more are retired, and lists with no file left in
   *       the buffer are dropped.
   * </ol>
   */
  /** The buffer after {@code update}, a {@link BufferChange}. */
  @Override
  public CompactionBuffer apply(LevelBuffers.Update update) {
    return apply((BufferChange) update);
  }

  public CompactionBuffer apply(BufferChange change) {
    int n = files.size();
    List<List<BufferFile>> fs = new ArrayList<>();
    Set<Long> live = new HashSet<>(present);
    for (int i = 0; i < n; i++) {
      fs.add(new ArrayList<>(files.get(i)));
    }
    Map<Long, List<BufferFile>> src = new HashMap<>(sources);
    boolean[] fr = frozen.clone();
    long[] moved = movedSinceFreeze.clone();
    long[][] pc = {pace[0].clone(), pace[1].clone(), pace[2].clone()};
    long e = epoch;
    int trimmed = 0;
    for (BufferDiff.Removal r : change.removals()) {
      if (r.level() > 0 && r.level() < n && fs.get(r.level()).removeIf(b -> b.fileNumber() == r.fileNumber())) {
        live.remove(r.fileNumber());
        src.remove(r.fileNumber());
        trimmed++;
      }
    }
    int appended = 0;
    int frozenMerges = 0;
    int in = change.level();
    int out = in + 1;
    boolean gear = change.config().gear();
    if (change.shift() && out < n) {
      // Algorithm 1 lines 7–11: C_i becomes C_i′ and B_i becomes B_i′ (C_i′ was empty, so by the
      // pace B_i′ was too); the new B_i starts empty and unfrozen: C_i has moved down (§4.1)
      List<BufferFile> moving = fs.get(in);
      fs.get(out).addAll(0, moving);
      fs.set(in, new ArrayList<>());
      fr[in] = false;
      moved[in] = 0;
      pc[C_AT_MOVE][out] = change.upper().stream().mapToLong(FileMeta::fileSize).sum();
      pc[B_AT_MOVE][out] = fs.get(out).stream().mapToLong(b -> b.file().fileSize()).sum();
      pc[DRAINED][out] = 0;
    } else if (in >= 0 && out < n && !change.upper().isEmpty()) {
      long left = change.upper().stream().mapToLong(FileMeta::fileSize).sum();
      if (gear && in > 0) {
        pc[DRAINED][in] += left; // C_i′ drains
      }
      if (!gear && in > 0 && fr[in]) {
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
      if (change.merged()) {
        List<BufferFile> merged = new ArrayList<>();
        Set<Long> draining = new HashSet<>();
        if (gear) {
          for (int level = 2; level < n; level += 2) {
            fs.get(level).forEach(b -> draining.add(b.fileNumber()));
          }
        }
        for (FileMeta x : change.inputs()) {
          List<BufferFile> xs = src.remove(x.fileNumber());
          if (fr[out]) {
            continue;
          }
          List<BufferFile> within = xs == null ? List.of() : clip(xs, x);
          // Sources in a draining B_i′ go as C_i′ drains: then x itself is kept in B_i+1, as the
          // paper appends every f_a, and reads go to its sources only while they last.
          if (!within.isEmpty() && within.stream().allMatch(b -> live.contains(b.fileNumber()) && !draining.contains(b.fileNumber()))) {
            addNew(merged, within); // x is exactly the merge of these: read them, not x
          } else {
            BufferFile b = BufferFile.of(x, ++e, change.filter(x));
            fs.get(out).add(0, b);
            live.add(b.fileNumber());
            appended++;
            merged.add(b);
            if (!within.isEmpty()) {
              src.put(x.fileNumber(), within); // some of its sources are still cached: keep reading them
            }
          }
        }
        if (fr[out]) {
          frozenMerges += change.upper().size();
        } else {
          for (FileMeta o : change.outputs()) {
            src.put(o.fileNumber(), clip(merged, o));
          }
        }
      }
    }
    int paced = 0;
    for (int level = 1; level < n; level++) {
      List<BufferFile> l = fs.get(level);
      long cap = cap(pc, level, change.config());
      long bytes = l.stream().mapToLong(b -> b.file().fileSize()).sum();
      while (bytes > cap && !l.isEmpty()) {
        BufferFile victim = l.get(0);
        for (BufferFile b : l) {
          if (user.compare(b.hi(), victim.hi()) < 0) {
            victim = b;
          }
        }
        l.remove(victim);
        live.remove(victim.fileNumber());
        src.remove(victim.fileNumber());
        bytes -= victim.file().fileSize();
        paced++;
      }
    }
    int retired = 0;
    boolean again = true;
    while (again) {
      src.values().removeIf(l -> l.stream().noneMatch(b -> live.contains(b.fileNumber())));
      Set<Long> referenced = new HashSet<>();
      src.values().forEach(l -> l.forEach(b -> referenced.add(b.fileNumber())));
      again = false;
      for (List<BufferFile> l : fs) {
        for (BufferFile b : List.copyOf(l)) {
          if (!referenced.contains(b.fileNumber())) {
            l.remove(b);
            live.remove(b.fileNumber());
            src.remove(b.fileNumber());
            retired++;
            again = true;
          }
        }
      }
    }
    return new CompactionBuffer(user, fs, src, fr, moved, pc, e, new Outcome(appended, frozenMerges, retired, paced, trimmed));
  }

  /** The compaction buffer {@code version} holds (a store with tree=lsbm). */
  public static CompactionBuffer of(Version version) {
    if (version.buffer() instanceof CompactionBuffer b) {
      return b;
    }
    throw new IllegalStateException("this version holds no compaction buffer: " + version.buffer());
  }

  /** What changed from {@code before} (a compaction buffer) to this buffer (for the manifest). */
  @Override
  public BufferDiff diff(LevelBuffers previous) {
    CompactionBuffer before = (CompactionBuffer) previous;
    List<BufferDiff.Added> added = new ArrayList<>();
    List<BufferDiff.Removal> removed = new ArrayList<>();
    Map<Long, Integer> levelBefore = before.levelsByFile();
    Map<Long, Integer> levelNow = levelsByFile();
    for (int level = 0; level < files.size(); level++) {
      for (BufferFile b : files.get(level)) {
        if (!Integer.valueOf(level).equals(levelBefore.get(b.fileNumber()))) { // new, or moved by a gear move
          added.add(new BufferDiff.Added(level, b.file()));
        }
      }
      for (BufferFile b : before.files.get(level)) {
        if (!Integer.valueOf(level).equals(levelNow.get(b.fileNumber()))) {
          removed.add(new BufferDiff.Removal(level, b.fileNumber()));
        }
      }
    }
    Map<Long, List<BufferFile>> set = new java.util.TreeMap<>();
    sources.forEach((owner, l) -> {
      if (before.sources.get(owner) != l) { // lists an edit did not touch are the same object
        set.put(owner, l);
      }
    });
    List<Long> dropped = new ArrayList<>();
    before.sources.keySet().stream().sorted().filter(owner -> !sources.containsKey(owner)).forEach(dropped::add);
    return new BufferDiff(added, removed, set, dropped);
  }

  private Map<Long, Integer> levelsByFile() {
    Map<Long, Integer> out = new HashMap<>();
    for (int level = 0; level < files.size(); level++) {
      for (BufferFile b : files.get(level)) {
        out.put(b.fileNumber(), level);
      }
    }
    return out;
  }

  @Override
  public CompactionBuffer empty() {
    return empty(user, files.size());
  }

  /**
   * The buffer after a recorded {@link BufferDiff} (manifest replay). Added files go in front of their
   * lists in the recorded order, with new epochs; sources entries admit every key (their Bloom
   * filters are not recorded).
   */
  @Override
  public CompactionBuffer replay(BufferDiff d) {
    List<List<BufferFile>> fs = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      fs.add(new ArrayList<>(files.get(i)));
    }
    for (BufferDiff.Removal r : d.removed()) {
      fs.get(r.level()).removeIf(b -> b.fileNumber() == r.fileNumber());
    }
    long e = epoch + d.added().size();
    long next = e;
    List<List<BufferFile>> front = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      front.add(new ArrayList<>());
    }
    for (BufferDiff.Added a : d.added()) {
      front.get(a.level()).add(BufferFile.of(a.file(), next--, KeyFilter.ALL));
    }
    for (int i = 0; i < files.size(); i++) {
      fs.get(i).addAll(0, front.get(i));
    }
    Map<Long, List<BufferFile>> src = new HashMap<>(sources);
    d.sourcesDropped().forEach(src::remove);
    d.sourcesSet().forEach((owner, l) -> src.put(owner,
        l.stream().map(b -> new BufferFile(b.file(), 0, b.lo(), b.hi(), KeyFilter.ALL)).toList()));
    return new CompactionBuffer(user, fs, src, new boolean[files.size()], new long[files.size()], noPace(files.size()), e,
        Outcome.NONE);
  }

  /**
   * Appends the entries of {@code more} not in {@code to} yet. Two inputs can share a source (a
   * level-0 file spans many files of C_1); at the same range, its first place answers first, and
   * identically, so a second place would never be reached.
   */
  private void addNew(List<BufferFile> to, List<BufferFile> more) {
    for (BufferFile b : more) {
      if (to.stream().noneMatch(t -> t.fileNumber() == b.fileNumber() && user.compare(t.lo(), b.lo()) == 0
          && user.compare(t.hi(), b.hi()) == 0)) {
        to.add(b);
      }
    }
  }

  /**
   * The entries of {@code l} that overlap {@code f}, each narrowed to {@code f}'s key range. A
   * source answers for f's keys only: a level-0 file merged into one file of C_1 also holds keys
   * of its neighbours, whose newer versions may since have arrived elsewhere.
   */
  private List<BufferFile> clip(List<BufferFile> l, FileMeta f) {
    byte[] lo = InternalKey.userKey(f.smallest());
    byte[] hi = InternalKey.userKey(f.largest());
    List<BufferFile> out = new ArrayList<>();
    for (BufferFile b : l) {
      if (user.compare(b.lo(), hi) <= 0 && user.compare(b.hi(), lo) >= 0) {
        out.add(new BufferFile(b.file(), b.epoch(), user.compare(b.lo(), lo) >= 0 ? b.lo() : lo,
            user.compare(b.hi(), hi) <= 0 ? b.hi() : hi, b.filter()));
      }
    }
    return out;
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
