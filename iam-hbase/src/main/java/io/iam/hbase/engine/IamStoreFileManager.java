package io.iam.hbase.engine;

import io.iam.core.tree.layout.NodeTag;
import io.iam.core.tree.layout.Rows;
import io.iam.core.tree.layout.Sequence;
import io.iam.core.tree.layout.TreeLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
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
 * <p>HBase changes the files under the store's write lock and reads them under its read lock; the
 * state is one immutable snapshot, replaced as a whole.
 */
public final class IamStoreFileManager implements StoreFileManager {

  private static final Logger LOG = LoggerFactory.getLogger(IamStoreFileManager.class);
  /** Oldest first, by the largest sequence id a file holds (HBase's order), then by name. */
  private static final Comparator<HStoreFile> ORDER =
      Comparator.comparingLong(HStoreFile::getMaxSequenceId).thenComparing(f -> f.getPath().getName());

  /** The files and their tree, replaced as a whole. */
  private record State(ImmutableList<HStoreFile> files, TreeLayout<HStoreFile> layout) {}

  private final int blockingFileCount;
  private final AtomicLong stamps = new AtomicLong();
  private final Predicate<TreeLayout<HStoreFile>> hasWork;
  private volatile State state = state(ImmutableList.of());
  private volatile ImmutableList<HStoreFile> compacted = ImmutableList.of();
  /** Whether the tree of one state has work: computed once per state. */
  private record Work(State of, boolean pending) {}

  private volatile Work work = new Work(null, false);

  /**
   * @param hasWork whether the compaction policy has a step to run on a tree (the store then asks
   *     for compactions until it has none)
   */
  public IamStoreFileManager(int blockingFileCount, Predicate<TreeLayout<HStoreFile>> hasWork) {
    this.blockingFileCount = blockingFileCount;
    this.hasWork = hasWork;
  }

  /** The tree as the files form it now. */
  public TreeLayout<HStoreFile> layout() {
    return state.layout();
  }

  /** A new stamp, larger than any a file records and any handed out before. */
  public long nextStamp() {
    return stamps.incrementAndGet();
  }

  private State state(ImmutableList<HStoreFile> files) {
    List<Sequence<HStoreFile>> seqs = new ArrayList<>(files.size());
    for (HStoreFile f : files) {
      seqs.add(sequence(f));
    }
    TreeLayout<HStoreFile> layout = TreeLayout.of(seqs);
    stamps.accumulateAndGet(layout.largestStamp(), Math::max);
    return new State(files, layout);
  }

  /**
   * How the tree sees {@code f}: its tag unless it is a reference or a bulk load, rows, and its cell
   * bytes as recorded (its length for a file that records none).
   */
  static Sequence<HStoreFile> sequence(HStoreFile f) {
    NodeTag tag = f.isReference() || f.isBulkLoadResult() ? null : NodeTag.read(f::getMetadataValue).orElse(null);
    byte[] first = f.getFirstKey().map(CellUtil::cloneRow).orElse(null);
    byte[] last = f.getLastKey().map(CellUtil::cloneRow).orElse(null);
    long cellBytes = tag == null ? -1 : NodeTag.readCellBytes(f::getMetadataValue);
    long bytes = cellBytes >= 0 ? cellBytes : f.getReader() == null ? 0 : f.getReader().length();
    return new Sequence<>(f, tag, first, first == null ? null : last, bytes);
  }

  private void replace(Iterable<HStoreFile> files) {
    state = state(ImmutableList.sortedCopyOf(ORDER, files));
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
    compactedFiles.forEach(HStoreFile::markCompactedAway);
    List<HStoreFile> c = new ArrayList<>(compacted);
    c.addAll(compactedFiles);
    compacted = ImmutableList.sortedCopyOf(ORDER, c);
  }

  @Override
  public void removeCompactedFiles(Collection<HStoreFile> compactedFiles) {
    Set<HStoreFile> gone = Set.copyOf(compactedFiles);
    compacted = compacted.stream().filter(f -> !gone.contains(f)).collect(ImmutableList.toImmutableList());
  }

  @Override
  public ImmutableCollection<HStoreFile> clearFiles() {
    ImmutableList<HStoreFile> files = state.files();
    replace(List.of());
    return files;
  }

  @Override
  public Collection<HStoreFile> clearCompactedFiles() {
    ImmutableList<HStoreFile> c = compacted;
    compacted = ImmutableList.of();
    return c;
  }

  @Override
  public Collection<HStoreFile> getStoreFiles() {
    return state.files();
  }

  @Override
  public Collection<HStoreFile> getCompactedfiles() {
    return compacted;
  }

  @Override
  public int getStorefileCount() {
    return state.files().size();
  }

  @Override
  public int getCompactedFilesCount() {
    return compacted.size();
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
    files.sort(ORDER);
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
   * 0 (urgent, so HBase enqueues the next compaction as soon as one finishes) while the tree has
   * work, else HBase's default: the room left below the blocking file count.
   */
  @Override
  public int getStoreCompactionPriority() {
    int room = blockingFileCount - getStorefileCount();
    if (room <= 0) {
      return room;
    }
    return pendingWork() ? 0 : (room == 1 ? 2 : room);
  }

  /** Whether the compaction policy has work on the current tree (cached per tree). */
  public boolean pendingWork() {
    State s = state;
    Work w = work;
    if (w.of() != s) {
      boolean pending;
      try {
        pending = hasWork.test(s.layout());
      } catch (RuntimeException e) {
        LOG.error("cannot plan the tree of this store; no compaction is requested", e);
        pending = false;
      }
      w = new Work(s, pending);
      work = w;
    }
    return w.pending();
  }

  /** Files are never dropped whole: expired cells go in ordinary compactions. */
  @Override
  public Collection<HStoreFile> getUnneededFiles(long maxTs, List<HStoreFile> filesCompacting) {
    return List.of();
  }

  @Override
  public double getCompactionPressure() {
    return pendingWork() ? 1.0 : 0.0;
  }

  @Override
  public Comparator<HStoreFile> getStoreFileComparator() {
    return ORDER;
  }
}
