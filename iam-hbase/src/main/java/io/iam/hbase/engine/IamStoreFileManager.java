package io.iam.hbase.engine;

import io.iam.core.tree.layout.Backlog;
import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Rows;
import io.iam.core.tree.layout.Sequence;
import io.iam.core.tree.layout.Slices;
import io.iam.core.tree.layout.TreeLayout;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileManager;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableCollection;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a store's files and the IAM tree they form ({@link TreeLayout}), rebuilt from the files'
 * tags whenever files come or go. Reads open only the files holding rows of the range read (all
 * unplaced files included). Also hands out the store's stamps (new node ids and epochs), always
 * above every stamp a file records.
 *
 * <p><b>Back-pressure.</b> HBase delays a memstore flush while {@code getStorefileCount()} is above
 * {@code hbase.hstore.blockingStoreFiles} ({@code HStore.hasTooManyStoreFiles}). An IAM tree holds
 * many HFiles by design (up to k per node, and thousands of nodes), and a Get opens only the files
 * on its row's path, so the raw count says nothing about whether the tree keeps up. This manager
 * therefore reports, as its file count, what HBase's blocking should weigh: the store's HFiles
 * capped at the blocking count while the tree keeps up. While the tree's {@link Backlog} says a
 * memstore flush must wait (a level-1 node at twice its capacity with a step to run: the embedded
 * engine's rule), the flusher waits itself, briefly ({@link #awaitRoomForFlush}); only at 3 × C_t
 * ({@link #HBASE_BLOCKS_AT_PRESSURE}) does the count go above the blocking count. The true number
 * of HFiles is {@link #getStoreFiles()}{@code .size()}, and {@link #hfileCount()}. Compaction pressure is the backlog's level-1 pressure, so
 * HBase's throughput controller lifts its limit as level 1 nears the hard limit.
 *
 * <p>HBase changes the files under the store's write lock and reads them under its read lock; the
 * state is one immutable snapshot, replaced as a whole.
 */
public final class IamStoreFileManager implements StoreFileManager {

  private static final Logger LOG = LoggerFactory.getLogger(IamStoreFileManager.class);
  /** Oldest first, by the largest sequence id a file holds (HBase's order), then by name. */
  private static final Comparator<HStoreFile> ORDER =
      Comparator.comparingLong(HStoreFile::getMaxSequenceId).thenComparing(f -> f.getPath().getName());

  /** The files and their tree, replaced as a whole; {@code known} holds what each file's tags say. */
  private record State(ImmutableList<HStoreFile> files, TreeLayout<HStoreFile> layout, Map<HStoreFile, Known> known) {}

  /** A file with what the tree sees of it and its sort keys, read once. */
  private record Known(HStoreFile file, Sequence<HStoreFile> sequence, long maxSequenceId, String name) {
    /** {@link IamStoreFileManager#ORDER} on keys read once. */
    static final Comparator<Known> ORDER = Comparator.comparingLong(Known::maxSequenceId).thenComparing(Known::name);
  }

  /**
   * Level 1's pressure (1 at the hard limit of 2 × C_t) from which HBase itself holds memstore
   * flushes back: 2, a level-1 node at 3 × C_t. Reached only if the tree falls behind for longer
   * than the flusher's bounded waits can absorb. At 2 × C_t HBase's holds made puts wait over a
   * second; at 4 × C_t the overfull level 1 raised the mixed level's merging (docs/hbase-engine.md).
   */
  static final double HBASE_BLOCKS_AT_PRESSURE = 2.0;

  private final int blockingFileCount;
  private final AtomicLong stamps = new AtomicLong();
  private final Function<TreeLayout<HStoreFile>, Backlog> backlogs;
  private volatile State state = state(List.of(), Map.of());
  private final ReplacedFiles<HStoreFile> compacted;
  /** The backlog of one state: computed once per state. */
  private record Work(State of, Backlog backlog) {}

  private volatile Work work = new Work(null, Backlog.SETTLED);
  /** @GuardedBy("this") HFile bytes written per level (index 0: files without a tag). */
  private final List<Long> writtenPerLevel = new ArrayList<>();
  /**
   * @GuardedBy("this") Time memstore flushes waited for the tree: in {@link #awaitRoomForFlush}, and
   * while HBase was told to hold them back, up to the current hold.
   */
  private long waitNanos;
  /** @GuardedBy("this") Since when HBase is told to hold memstore flushes back (System.nanoTime), or -1. */
  private long holdingSince = -1;
  /** @GuardedBy("this") How many memstore flushes waited in {@link #awaitRoomForFlush}. */
  private long waitEpisodes;
  /** @GuardedBy("this") How many times HBase was told to hold memstore flushes back. */
  private long holdEpisodes;

  /**
   * @param blockingFileCount the store's {@code hbase.hstore.blockingStoreFiles}
   * @param backlogs the tree's backlog as the compaction policy sees it (the store asks for
   *     compactions until it has no step to run)
   */
  public IamStoreFileManager(int blockingFileCount, Function<TreeLayout<HStoreFile>, Backlog> backlogs) {
    this(blockingFileCount, backlogs, System::nanoTime);
  }

  /** As above, with {@code clock} (nanoseconds) deciding when replaced files may be closed. */
  IamStoreFileManager(int blockingFileCount, Function<TreeLayout<HStoreFile>, Backlog> backlogs, LongSupplier clock) {
    this.blockingFileCount = blockingFileCount;
    this.backlogs = backlogs;
    this.compacted = new ReplacedFiles<>(clock);
  }

  /**
   * Called by a tree step as it starts, on its compaction thread: the files that thread's earlier
   * steps replaced may be closed now ({@link ReplacedFiles}).
   */
  public void stepStarting() {
    compacted.stepStarting();
  }

  /** The tree as the files form it now. */
  public TreeLayout<HStoreFile> layout() {
    return state.layout();
  }

  /** A new stamp, larger than any a file records and any handed out before. */
  public long nextStamp() {
    return stamps.incrementAndGet();
  }

  /**
   * The state of {@code files}, in HBase's order. What a file's tags say is read once per file and
   * kept while the file stays in the store: a step replaces a few of a store's thousands of files,
   * and HBase rebuilds the state after every flush and step.
   */
  private State state(Collection<HStoreFile> files, Map<HStoreFile, Known> previous) {
    Map<HStoreFile, Known> known = new IdentityHashMap<>(files.size() * 2);
    List<Known> sorted = new ArrayList<>(files.size());
    for (HStoreFile f : files) {
      Known k = previous.get(f);
      if (k == null) {
        k = new Known(f, sequence(f), f.getMaxSequenceId(), f.getPath().getName());
      }
      known.put(f, k);
      sorted.add(k);
    }
    sorted.sort(Known.ORDER);
    ImmutableList.Builder<HStoreFile> inOrder = ImmutableList.builderWithExpectedSize(sorted.size());
    List<Sequence<HStoreFile>> seqs = new ArrayList<>(sorted.size());
    for (Known k : sorted) {
      inOrder.add(k.file());
      seqs.add(k.sequence());
    }
    TreeLayout<HStoreFile> layout = TreeLayout.of(seqs);
    stamps.accumulateAndGet(layout.largestStamp(), Math::max);
    return new State(inOrder.build(), layout, known);
  }

  /**
   * How the tree sees {@code f}: its tag unless it is a reference or a bulk load, rows, its cell
   * bytes as recorded (its length for a file that records none), and its slices if it is a shared
   * flush file.
   */
  static Sequence<HStoreFile> sequence(HStoreFile f) {
    NodeTag tag = f.isReference() || f.isBulkLoadResult() ? null : NodeTag.read(f::getMetadataValue).orElse(null);
    byte[] first = f.getFirstKey().map(CellUtil::cloneRow).orElse(null);
    byte[] last = f.getLastKey().map(CellUtil::cloneRow).orElse(null);
    long cellBytes = tag == null ? -1 : NodeTag.readCellBytes(f::getMetadataValue);
    long bytes = cellBytes >= 0 ? cellBytes : f.getReader() == null ? 0 : f.getReader().length();
    Slices slices = tag == null ? null : Slices.decode(f.getMetadataValue(Slices.KEY));
    return new Sequence<>(f, tag, first, first == null ? null : last, bytes, slices);
  }

  private void replace(Collection<HStoreFile> files) {
    state = state(files, state.known());
    boolean hold = hbaseMustBlock();
    long now = System.nanoTime();
    synchronized (this) {
      if (holdingSince >= 0 && !hold) {
        waitNanos += now - holdingSince;
        holdingSince = -1;
      } else if (holdingSince < 0 && hold) {
        holdingSince = now;
        holdEpisodes++;
      }
      notifyAll(); // a memstore flush waiting for room looks again
    }
  }

  /**
   * Waits while a memstore flush must wait for the tree ({@link Backlog#flushMustWait}), at most
   * {@code maxNanos}; wakes as soon as the files change. HBase's own way to hold a flush back (a
   * file count above the blocking count) looks again only every {@code blockingWaitTime / 100}
   * (900 ms by default), and the region refuses writes all that time; this wait ends when the
   * step that frees level 1 commits.
   *
   * @return the nanoseconds waited
   */
  public long awaitRoomForFlush(long maxNanos) throws InterruptedIOException {
    long start = System.nanoTime();
    synchronized (this) {
      if (backlog().flushMustWait()) {
        waitEpisodes++;
      }
      while (backlog().flushMustWait()) {
        long left = maxNanos - (System.nanoTime() - start);
        if (left <= 0) {
          break;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while a memstore flush waited for the tree");
        }
      }
      long waited = System.nanoTime() - start;
      waitNanos += waited;
      return waited;
    }
  }

  /**
   * Whether HBase should hold memstore flushes back itself: a level-1 node holds {@link
   * #HBASE_BLOCKS_AT_PRESSURE} + 1 times C_t and the tree has a step to run.
   * Below that the flusher's own bounded wait ({@link #awaitRoomForFlush}) is the back-pressure.
   */
  private boolean hbaseMustBlock() {
    Backlog b = backlog();
    return b.pending() && b.levelOnePressure() >= HBASE_BLOCKS_AT_PRESSURE;
  }

  /** The tree level {@code f}'s tag names; 0 for a file outside the tree (no tag, or a reference). */
  public static int levelOf(HStoreFile f) {
    return f.isReference() ? 0 : NodeTag.read(f::getMetadataValue).map(NodeTag::level).orElse(0);
  }

  /** Counts {@code files} as written by the store, each under the level its tag names (0: none). */
  private synchronized void written(Collection<HStoreFile> files) {
    for (HStoreFile f : files) {
      int level = levelOf(f);
      while (writtenPerLevel.size() <= level) {
        writtenPerLevel.add(0L);
      }
      writtenPerLevel.set(level, writtenPerLevel.get(level) + (f.getReader() == null ? 0 : f.getReader().length()));
    }
  }

  /** HFile bytes written per level since the store opened: flushes and compaction outputs (index 0: untagged). */
  public synchronized List<Long> writtenPerLevel() {
    return List.copyOf(writtenPerLevel);
  }

  /** How many memstore flushes have waited for the tree in the flusher since the store opened. */
  public synchronized long flushWaitEpisodes() {
    return waitEpisodes;
  }

  /** How many times since the store opened HBase was told to hold memstore flushes back (a level-1 node at 3 × C_t). */
  public synchronized long hbaseHoldEpisodes() {
    return holdEpisodes;
  }

  /**
   * How long memstore flushes have waited for the tree since the store opened: in the flusher, and
   * while HBase held them back (the current hold included).
   */
  public synchronized long flushWaitNanos() {
    return waitNanos + (holdingSince >= 0 ? System.nanoTime() - holdingSince : 0);
  }

  @Override
  public void loadFiles(List<HStoreFile> storeFiles) {
    replace(storeFiles);
    LOG.debug("loaded tree:\n{}", state.layout());
  }

  @Override
  public void insertNewFiles(Collection<HStoreFile> sfs) {
    List<HStoreFile> all = new ArrayList<>(state.files());
    all.addAll(sfs);
    replace(all);
    written(sfs);
  }

  @Override
  public void addCompactionResults(Collection<HStoreFile> compactedFiles, Collection<HStoreFile> results) {
    Set<HStoreFile> gone = Set.copyOf(compactedFiles);
    List<HStoreFile> all = new ArrayList<>();
    for (HStoreFile f : state.files()) {
      if (!gone.contains(f)) {
        all.add(f);
      }
    }
    all.addAll(results);
    replace(all);
    written(results);
    compactedFiles.forEach(HStoreFile::markCompactedAway);
    compacted.add(compactedFiles);
  }

  @Override
  public void removeCompactedFiles(Collection<HStoreFile> compactedFiles) {
    compacted.remove(compactedFiles);
  }

  @Override
  public ImmutableCollection<HStoreFile> clearFiles() {
    ImmutableList<HStoreFile> files = state.files();
    IamStores.get().remove(this); // the store closes
    replace(List.of());
    return files;
  }

  @Override
  public Collection<HStoreFile> clearCompactedFiles() {
    return ImmutableList.sortedCopyOf(ORDER, compacted.clear());
  }

  @Override
  public Collection<HStoreFile> getStoreFiles() {
    return state.files();
  }

  /**
   * The replaced files HBase may close and archive now: those whose step HBase is done with
   * ({@link ReplacedFiles}). The others are named by the files that replaced them, so a reopened
   * store skips them all the same.
   */
  @Override
  public Collection<HStoreFile> getCompactedfiles() {
    return ImmutableList.sortedCopyOf(ORDER, compacted.closable());
  }

  /**
   * The count HBase's flush blocking weighs (see the class comment): the HFiles, at most {@code
   * hbase.hstore.blockingStoreFiles} while the tree keeps up, more than it while a memstore flush
   * must wait for the tree.
   */
  @Override
  public int getStorefileCount() {
    int files = hfileCount();
    return hbaseMustBlock() ? Math.max(files, blockingFileCount + 1) : Math.min(files, blockingFileCount);
  }

  /** The store's HFiles, markers included. */
  public int hfileCount() {
    return state.files().size();
  }

  @Override
  public int getCompactedFilesCount() {
    return compacted.closable().size();
  }

  /**
   * The files holding rows of the range. A reversed scan passes its larger row first; a range with
   * exactly one open end cannot be told apart from a reversed one, so it reads every file.
   */
  @Override
  public Collection<HStoreFile> getFilesForScan(byte[] startRow, boolean includeStartRow, byte[] stopRow,
      boolean includeStopRow, boolean onlyLatestVersion) {
    byte[] start = startRow == null ? Rows.OPEN : startRow;
    byte[] stop = stopRow == null ? Rows.OPEN : stopRow;
    State s = state;
    if (Rows.isOpen(start) != Rows.isOpen(stop)) {
      return s.files();
    }
    if (!Rows.isOpen(start) && Rows.compare(start, stop) > 0) {
      byte[] t = start;
      start = stop;
      stop = t;
    }
    List<HStoreFile> files = new ArrayList<>(s.layout().filesFor(start, stop));
    files.sort(Comparator.comparing(s.known()::get, Known.ORDER)); // keys read once, not per Get
    return files;
  }

  /** Files whose first row is at or before the target's row, newest first. */
  @Override
  public Iterator<HStoreFile> getCandidateFilesForRowKeyBefore(KeyValue targetKey) {
    byte[] row = CellUtil.cloneRow(targetKey);
    List<HStoreFile> out = new ArrayList<>();
    for (HStoreFile f : state.files().reverse()) {
      Optional<Cell> first = f.getFirstKey();
      if (first.isPresent() && Rows.compare(CellUtil.cloneRow(first.get()), row) <= 0) {
        out.add(f);
      }
    }
    return out.iterator();
  }

  @Override
  public Iterator<HStoreFile> updateCandidateFilesForRowKeyBefore(Iterator<HStoreFile> candidateFiles,
      KeyValue targetKey, Cell candidate) {
    return candidateFiles;
  }

  /** The middle row of the largest file, unless it is that file's first or last row. */
  @Override
  public Optional<byte[]> getSplitPoint() throws IOException {
    HStoreFile largest = null;
    for (HStoreFile f : state.files()) {
      if (!f.isReference() && f.getReader() != null && f.getFirstKey().isPresent()
          && (largest == null || f.getReader().length() > largest.getReader().length())) {
        largest = f;
      }
    }
    if (largest == null) {
      return Optional.empty();
    }
    Optional<Cell> mid = largest.getReader().midKey();
    if (mid.isEmpty()) {
      return Optional.empty();
    }
    byte[] row = CellUtil.cloneRow(mid.get());
    byte[] first = CellUtil.cloneRow(largest.getFirstKey().get());
    byte[] last = CellUtil.cloneRow(largest.getLastKey().get());
    return Rows.compare(row, first) == 0 || Rows.compare(row, last) == 0 ? Optional.empty() : Optional.of(row);
  }

  /**
   * HBase's compaction priority (smaller runs first; at most 0 makes HBase enqueue the next
   * compaction as soon as one ends): below 0 while memstore flushes wait for the tree, 0 while the
   * tree has a step to run, else the room left below the blocking count (at least 2: 1 is
   * HBase's user priority).
   */
  @Override
  public int getStoreCompactionPriority() {
    Backlog b = backlog();
    if (b.flushMustWait()) {
      return Math.min(-1, blockingFileCount - hfileCount());
    }
    return b.pending() ? 0 : Math.max(2, blockingFileCount - getStorefileCount());
  }

  /** Whether the compaction policy has work on the current tree (cached per tree). */
  public boolean pendingWork() {
    return backlog().pending();
  }

  /** How far the current tree is behind (cached per tree). */
  public Backlog backlog() {
    State s = state;
    Work w = work;
    if (w.of() != s) {
      Backlog b;
      try {
        b = backlogs.apply(s.layout());
      } catch (RuntimeException e) {
        LOG.error("cannot plan the tree of this store; no compaction is requested", e);
        b = Backlog.SETTLED;
      }
      w = new Work(s, b);
      work = w;
    }
    return w.backlog();
  }

  /** Files are never dropped whole: expired cells go in ordinary compactions. */
  @Override
  public Collection<HStoreFile> getUnneededFiles(long maxTs, List<HStoreFile> filesCompacting) {
    return List.of();
  }

  /** Level 1's fill past C_t: 0 up to C_t, 1 at the hard limit (HBase lifts its throughput limit above 1). */
  @Override
  public double getCompactionPressure() {
    Backlog b = backlog();
    return b.pending() ? b.levelOnePressure() : 0.0;
  }

  @Override
  public Comparator<HStoreFile> getStoreFileComparator() {
    return ORDER;
  }
}
