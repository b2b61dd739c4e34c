package io.iam.core.manifest;

import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.wal.LogReader;
import io.iam.core.wal.LogWriter;
import io.iam.core.wal.RecoveryMode;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The store's history of versions and its manifest: an append-only log of {@link VersionEdit}s,
 * named by the file {@code CURRENT}. {@link #logAndApply} makes an edit durable before the new
 * version becomes current, so a crash leaves either the old or the new version, never a mix.
 * Also owns the counters that must survive restarts (next file number, last sequence, log
 * number). Thread-safe: edits are serialized on this object.
 */
public final class VersionSet implements Closeable {

  private static final Logger LOG = Logger.getLogger(VersionSet.class.getName());

  private final Fs fs;
  private final Path dir;
  private final InternalKeyComparator cmp;
  private final List<Version> retired = new ArrayList<>();
  private volatile Version current;
  private long nextFileNumber = 2;
  private volatile long lastSequence;
  private long logNumber;
  private long manifestNumber;
  private String treeName;
  private long flushedSequence;
  /**
   * Set when a manifest write or sync failed: that record may or may not be on disk, so the
   * manifest must be rewritten from the in-memory state before anything else is recorded, and
   * no table file may be deleted until then (the record may name it).
   */
  private volatile boolean manifestUncertain;
  private FsFile manifestFile;
  private LogWriter manifest;
  /** The manifest is rewritten as a snapshot once it reaches this size; see {@link #maxManifestSize}. */
  private long rollAt = Long.MAX_VALUE;
  private long maxManifestBytes = Long.MAX_VALUE;
  private long manifestRolls;

  private VersionSet(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels, LevelBuffers buffers) {
    this.fs = fs;
    this.dir = dir;
    this.cmp = cmp;
    this.current = Version.empty(cmp, numLevels, buffers);
  }

  /** Starts the manifest of a new, empty store in {@code dir} with a leveled tree. */
  public static VersionSet create(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels) throws IOException {
    return create(fs, dir, cmp, numLevels, LEVELED);
  }

  /**
   * Starts the manifest of a new, empty store in {@code dir} whose tree is {@code treeName}; a
   * node tree ({@code nodeTree}) starts with one empty on-disk level.
   */
  public static VersionSet create(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels, String treeName,
      boolean nodeTree) throws IOException {
    return create(fs, dir, cmp, numLevels, treeName, nodeTree, LevelBuffers.NONE);
  }

  /**
   * Starts the manifest of a new, empty store whose tree keeps level buffers beside its levels,
   * starting from {@code buffers} (empty ones).
   */
  public static VersionSet create(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels, String treeName,
      boolean nodeTree, LevelBuffers buffers) throws IOException {
    VersionSet vs = new VersionSet(fs, dir, cmp, numLevels, buffers);
    vs.treeName = treeName;
    if (nodeTree) {
      vs.current = vs.current.apply(new VersionEdit().depth(1));
    }
    vs.markNumbersInDirectoryUsed();
    vs.writeNewManifest();
    return vs;
  }

  private static VersionSet create(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels, String treeName)
      throws IOException {
    return create(fs, dir, cmp, numLevels, treeName, false);
  }

  /** The tree name stores record when none was recorded (stores made before trees were named). */
  public static final String LEVELED = "leveled";

  /** The tree the store was created with. */
  public String treeName() {
    return treeName;
  }

  /**
   * Recovers the versions of an existing store from its manifest, then starts a fresh manifest
   * holding one edit with the whole state.
   *
   * @throws IOException naming the file and offset if the manifest is damaged, or if it was
   *     written with another comparator
   */
  public static VersionSet recover(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels) throws IOException {
    return recover(fs, dir, cmp, numLevels, LevelBuffers.NONE);
  }

  /**
   * As {@link #recover(Fs, Path, InternalKeyComparator, int)}, for a store whose tree keeps level
   * buffers: the manifest's buffer records are replayed onto {@code buffers} (empty ones).
   */
  public static VersionSet recover(Fs fs, Path dir, InternalKeyComparator cmp, int numLevels, LevelBuffers buffers)
      throws IOException {
    VersionSet vs = new VersionSet(fs, dir, cmp, numLevels, buffers);
    Path manifestPath = dir.resolve(readCurrent(fs, dir));
    try (FsFile file = fs.open(manifestPath, Fs.Mode.READ);
        LogReader reader = new LogReader(file, manifestPath, RecoveryMode.TOLERATE_CORRUPTED_TAIL)) {
      byte[] record;
      boolean sawComparator = false;
      while ((record = reader.next()) != null) {
        VersionEdit edit;
        try {
          edit = VersionEdit.decode(record);
        } catch (IllegalArgumentException e) {
          throw new IOException(manifestPath + ": malformed version edit ending at offset "
              + reader.validLength() + ": " + e.getMessage(), e);
        }
        if (edit.comparatorName() != null) {
          sawComparator = true;
          if (!edit.comparatorName().equals(cmp.userComparator().name())) {
            throw new IOException("store " + dir + " was created with comparator '" + edit.comparatorName()
                + "', not '" + cmp.userComparator().name() + "'");
          }
        }
        if (edit.treeName() != null) {
          vs.treeName = edit.treeName();
        }
        vs.applyCounters(edit);
        try {
          vs.current = vs.current.apply(edit);
        } catch (IllegalStateException e) {
          throw new IOException(manifestPath + ": inconsistent edit ending at offset " + reader.validLength() + ": " + e.getMessage(), e);
        }
      }
      if (!sawComparator) {
        throw new IOException(manifestPath + ": no comparator recorded; not a complete manifest");
      }
    }
    if (vs.treeName == null) {
      vs.treeName = LEVELED;
    }
    vs.manifestNumber = StoreFiles.manifestNumber(manifestPath).orElse(1);
    vs.nextFileNumber = Math.max(vs.nextFileNumber, vs.manifestNumber + 1);
    vs.markNumbersInDirectoryUsed();
    vs.writeNewManifest();
    return vs;
  }

  /**
   * Moves the next file number past every numbered file in the directory. A crash can leave files
   * numbered after the last manifest edit: a flush or compaction that never committed, or a new
   * manifest written before CURRENT was switched to it (when the manifest was being replaced on
   * reaching its maximum size, or at open). Without this, the manifest started next could take the
   * number of such a leftover and fail to be created.
   */
  private void markNumbersInDirectoryUsed() throws IOException {
    for (Path p : fs.list(dir)) {
      for (OptionalLong n : List.of(StoreFiles.tableNumber(p), StoreFiles.logNumber(p), StoreFiles.manifestNumber(p))) {
        n.ifPresent(this::markFileNumberUsed);
      }
    }
  }

  /** The manifest file named by CURRENT. */
  static String readCurrent(Fs fs, Path dir) throws IOException {
    Path current = dir.resolve(StoreFiles.CURRENT);
    try (FsFile f = fs.open(current, Fs.Mode.READ)) {
      long size = f.size();
      if (size <= 0 || size > 256) {
        throw new IOException(current + ": unexpected length " + size);
      }
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      f.readFully(0, buf);
      String name = new String(buf.array(), StandardCharsets.UTF_8);
      if (!name.endsWith("\n") || StoreFiles.manifestNumber(Path.of(name.trim())).isEmpty()) {
        throw new IOException(current + ": does not name a manifest");
      }
      return name.trim();
    }
  }

  /** Every write numbered up to this is in table files (0 if no edit said so). */
  public synchronized long flushedSequence() {
    return flushedSequence;
  }

  private void applyCounters(VersionEdit edit) {
    if (edit.flushedSequence() != null) {
      flushedSequence = Math.max(flushedSequence, edit.flushedSequence());
    }
    if (edit.logNumber() != null) {
      logNumber = edit.logNumber();
    }
    if (edit.nextFileNumber() != null) {
      nextFileNumber = edit.nextFileNumber();
    }
    if (edit.lastSequence() != null) {
      lastSequence = edit.lastSequence();
    }
  }

  /** Writes a new manifest with the whole current state and points CURRENT at it. */
  private void writeNewManifest() throws IOException {
    long number = nextFileNumber++;
    Path path = StoreFiles.manifest(dir, number);
    FsFile file = fs.open(path, Fs.Mode.CREATE_NEW);
    LogWriter writer = new LogWriter(file, path, 0);
    VersionEdit snapshot = new VersionEdit()
        .comparator(cmp.userComparator().name())
        .logNumber(logNumber)
        .nextFileNumber(nextFileNumber)
        .lastSequence(lastSequence)
        .flushedSequence(flushedSequence)
        .tree(treeName);
    if (current.depth() > 0) {
      snapshot.depth(current.depth());
      for (int level = 1; level <= current.depth(); level++) {
        for (NodeMeta n : current.nodes(level)) {
          snapshot.putNode(level, n);
        }
      }
    } else {
      for (int level = 0; level < current.numLevels(); level++) {
        for (FileMeta f : current.files(level)) {
          snapshot.add(level, f);
          VersionEdit.FlushRange r = current.flushRange(f.fileNumber());
          if (r != null) {
            snapshot.flushRange(r.fileNumber(), r.first(), r.last()); // tree=stack
          }
        }
      }
      snapshot.bufferDiff(current.buffer().asDiff()); // tree=lsbm: the buffer, kept across the new manifest
    }
    boolean renamed = false;
    try {
      writer.addRecord(snapshot.encode());
      writer.sync();
      Path tmp = dir.resolve(StoreFiles.CURRENT + ".tmp");
      try (FsFile cur = fs.open(tmp, Fs.Mode.WRITE)) {
        cur.truncate(0);
        cur.write(0, ByteBuffer.wrap((path.getFileName() + "\n").getBytes(StandardCharsets.UTF_8)));
        cur.sync();
      }
      fs.rename(tmp, dir.resolve(StoreFiles.CURRENT));
      renamed = true;
      fs.syncDirectory(dir);
    } catch (IOException | RuntimeException e) {
      if (renamed) {
        adopt(writer, file, number); // CURRENT may name either manifest now; both are complete
      } else {
        try {
          writer.close();
          file.close();
          fs.delete(path);
        } catch (IOException | RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    }
    long old = manifestNumber;
    adopt(writer, file, number);
    if (old != 0 && old != number) {
      fs.delete(StoreFiles.manifest(dir, old));
    }
  }

  /** Makes a fully written manifest the one later edits go to. */
  private void adopt(LogWriter writer, FsFile file, long number) {
    try {
      closeManifest();
    } catch (IOException e) {
      // the old manifest is done with (and may be the one that failed); nothing depends on closing it cleanly
      manifest = null;
      manifestFile = null;
    }
    manifest = writer;
    manifestFile = file;
    manifestNumber = number;
  }

  /**
   * Records {@code edit} durably, then makes the version it produces current. The edit also
   * carries the current next-file-number and last-sequence counters.
   *
   * @throws IOException if the manifest could not be written; the current version is unchanged
   */
  public synchronized Version logAndApply(VersionEdit edit) throws IOException {
    if (manifestUncertain) {
      writeNewManifest();
      manifestUncertain = false;
    }
    if (edit.logNumber() == null) {
      edit.logNumber(logNumber);
    }
    edit.nextFileNumber(nextFileNumber).lastSequence(lastSequence);
    Version next = current.apply(edit);
    try {
      manifest.addRecord(edit.encode());
      manifest.sync();
    } catch (IOException | RuntimeException e) {
      // The record may or may not have reached the disk. Start a new manifest from the state
      // before it, so that CURRENT names no manifest holding it; if that fails too, the next
      // edit tries again first.
      manifestUncertain = true;
      try {
        writeNewManifest();
        manifestUncertain = false;
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    logNumber = edit.logNumber();
    if (edit.flushedSequence() != null) {
      flushedSequence = Math.max(flushedSequence, edit.flushedSequence());
    }
    Version previous = current;
    retired.add(previous);
    current = next;
    if (manifest.size() >= rollAt) {
      rollManifest();
    }
    return next;
  }

  /**
   * Replaces the manifest by a new one holding only the current state, as {@link #recover} does
   * at open. The edit just logged is already durable in the old one, so a failure here loses
   * nothing: CURRENT names the old manifest, or the new one if the switch got that far (both are
   * complete), and the next try waits until the manifest has grown by another maximum size (a
   * full disk would otherwise retry on every edit).
   */
  private void rollManifest() {
    try {
      writeNewManifest();
      manifestRolls++;
      rollAt = nextRollAt();
    } catch (IOException | RuntimeException e) {
      rollAt = manifest.size() + maxManifestBytes;
      LOG.log(Level.WARNING, "could not start a new manifest in " + dir + "; edits go on in "
          + StoreFiles.manifest(dir, manifestNumber).getFileName() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Starts a new manifest holding only the current state once the manifest reaches {@code bytes}
   * (the store option {@code max-manifest-size}); without a call, a manifest is only rewritten
   * at open. Like RocksDB's {@code max_manifest_file_size}: a store that runs for months keeps a
   * manifest that opens quickly.
   *
   * @throws IllegalArgumentException if {@code bytes} is not positive
   */
  public synchronized void maxManifestSize(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("max manifest size must be positive: " + bytes);
    }
    maxManifestBytes = bytes;
    rollAt = nextRollAt();
  }

  /**
   * The size at which the manifest is replaced next: the maximum, or twice what it holds now if
   * the state alone is larger (then a new manifest would be as large, and replacing it on every
   * edit would only rewrite it).
   */
  private long nextRollAt() {
    return Math.max(maxManifestBytes, manifest == null ? 0 : 2 * manifest.size());
  }

  /** How many times the manifest was replaced because it reached its maximum size. */
  public synchronized long manifestRolls() {
    return manifestRolls;
  }

  /**
   * Whether a failed manifest write left a record that may name table files the current version
   * does not have; table files must not be deleted while this holds.
   */
  public boolean manifestUncertain() {
    return manifestUncertain;
  }

  /** The current version; pin it with {@link Version#ref()} if it must outlive later edits. */
  public Version current() {
    return current;
  }

  /**
   * Pins and returns the current version, without waiting for an edit being logged: if the
   * version read was retired and released in between, the newer current one is pinned instead.
   */
  public Version pinCurrent() {
    while (true) {
      Version v = current;
      if (v.tryRef()) {
        return v;
      }
    }
  }

  /**
   * Makes sure new files get numbers above {@code number}: a crash can leave files numbered after
   * the last manifest edit (a flush or compaction that never committed).
   */
  public synchronized void markFileNumberUsed(long number) {
    if (nextFileNumber <= number) {
      nextFileNumber = number + 1;
    }
  }

  /** The number the next {@link #newFileNumber()} would return; every file numbered below exists or existed. */
  public synchronized long peekNextFileNumber() {
    return nextFileNumber;
  }

  public synchronized long newFileNumber() {
    return nextFileNumber++;
  }

  public long lastSequence() {
    return lastSequence;
  }

  /** Called under the store's write lock after a batch is applied. */
  public void setLastSequence(long sequence) {
    if (sequence < lastSequence) {
      throw new IllegalArgumentException("sequence numbers never go back: " + sequence + " < " + lastSequence);
    }
    lastSequence = sequence;
  }

  public synchronized long logNumber() {
    return logNumber;
  }

  public synchronized long manifestNumber() {
    return manifestNumber;
  }

  /** Numbers of the table files referenced by the current version or any pinned older one. */
  public synchronized Set<Long> liveFiles() {
    Set<Long> live = new HashSet<>();
    for (Iterator<Version> it = retired.iterator(); it.hasNext(); ) {
      Version v = it.next();
      if (v.release()) {
        it.remove();
      } else {
        v.allFiles().forEach(f -> live.add(f.fileNumber()));
        v.buffer().allFiles().forEach(f -> live.add(f.fileNumber()));
      }
    }
    current.allFiles().forEach(f -> live.add(f.fileNumber()));
    current.buffer().allFiles().forEach(f -> live.add(f.fileNumber()));
    return live;
  }

  private void closeManifest() throws IOException {
    if (manifest != null) {
      manifest.close();
      manifestFile.close();
      manifest = null;
      manifestFile = null;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    closeManifest();
  }
}
