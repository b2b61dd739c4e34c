package io.iam.core.manifest;

import io.iam.core.util.Coding;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One atomic change to the set of live files, as recorded in the manifest: files added and
 * removed per level, and the counters that must survive a restart. Edits are applied in order;
 * an edit is either wholly in the manifest or not at all (one log record each).
 */
public final class VersionEdit {

  /** A file placed on, or removed from, a level. */
  public record LevelFile(int level, FileMeta file) {}

  /** A file removed from a level. */
  public record Removal(int level, long fileNumber) {}

  /**
   * tree=stack: the flushes a file holds, numbered from 1 ({@code first} to {@code last}), which the
   * stack policies decide from.
   */
  public record FlushRange(long fileNumber, long first, long last) {
    public FlushRange {
      if (first < 1 || last < first) {
        throw new IllegalArgumentException("bad flush range of file " + fileNumber + ": " + first + ".." + last);
      }
    }

    /** How many flushes the file holds. */
    public long flushes() {
      return last - first + 1;
    }
  }

  /** A node placed on a level, replacing the node of the same id there, if any. */
  public record LevelNode(int level, NodeMeta node) {}

  /** A node removed from a level. */
  public record NodeRemoval(int level, long id) {}

  /** tree=lsbm: a file entering or leaving compaction buffer list B_level. */
  public record BufferRecord(int level, long fileNumber) {}

  private static final int TAG_COMPARATOR = 1;
  private static final int TAG_LOG_NUMBER = 2;
  private static final int TAG_NEXT_FILE = 3;
  private static final int TAG_LAST_SEQUENCE = 4;
  private static final int TAG_REMOVE = 5;
  private static final int TAG_ADD = 6;
  private static final int TAG_TREE = 7;
  private static final int TAG_DEPTH = 8;
  private static final int TAG_PUT_NODE = 9;
  private static final int TAG_REMOVE_NODE = 10;
  private static final int TAG_FLUSHED_SEQUENCE = 11;
  /**
   * tree=lsbm: a file entered compaction buffer list B_level, by number only. Written before the
   * buffer was persisted; replay ignores it (such a manifest's buffer is dropped, as it was then).
   */
  private static final int TAG_BUFFER_ADD = 12;
  /** tree=lsbm: a file left B_level. */
  private static final int TAG_BUFFER_REMOVE = 13;
  /** tree=lsbm: a file entered B_level, with its metadata. */
  private static final int TAG_BUFFER_ADD_FILE = 14;
  /** tree=lsbm: a file's whole sources list: owner, count, then (file, lo, hi) per entry. */
  private static final int TAG_BUFFER_SOURCES = 15;
  /** tree=lsbm: a file's sources list is gone. */
  private static final int TAG_BUFFER_SOURCES_DROP = 16;
  /** tree=stack: a file's flush range. */
  private static final int TAG_FLUSH_RANGE = 17;

  private String comparatorName;
  private Long logNumber;
  private Long nextFileNumber;
  private Long lastSequence;
  private final List<Removal> removed = new ArrayList<>();
  private final List<LevelFile> added = new ArrayList<>();
  private final List<FlushRange> flushRanges = new ArrayList<>();
  private String treeName;
  private Integer depth;
  private Long flushedSequence;
  private final List<NodeRemoval> removedNodes = new ArrayList<>();
  private final List<LevelNode> putNodes = new ArrayList<>();
  /** tree=lsbm: the buffer change to apply with this edit (in memory only). */
  private LevelBuffers.Update bufferChange;
  /** tree=lsbm: what the edit changed in the buffer, as recorded in the manifest; null: nothing. */
  private BufferDiff bufferDiff;
  /** tree=lsbm: legacy records (tag 12) of an old manifest, decoded and ignored. */
  private final List<BufferRecord> legacyBufferAdded = new ArrayList<>();

  public VersionEdit comparator(String name) {
    this.comparatorName = name;
    return this;
  }

  /** Logs numbered below this hold nothing that is not in table files. */
  public VersionEdit logNumber(long n) {
    this.logNumber = n;
    return this;
  }

  public VersionEdit nextFileNumber(long n) {
    this.nextFileNumber = n;
    return this;
  }

  public VersionEdit lastSequence(long s) {
    this.lastSequence = s;
    return this;
  }

  public VersionEdit remove(int level, long fileNumber) {
    removed.add(new Removal(level, fileNumber));
    return this;
  }

  public VersionEdit add(int level, FileMeta file) {
    added.add(new LevelFile(level, file));
    return this;
  }

  /** tree=stack: records which flushes an added file holds. */
  public VersionEdit flushRange(long fileNumber, long first, long last) {
    flushRanges.add(new FlushRange(fileNumber, first, last));
    return this;
  }

  /** The flush ranges this edit records. */
  public List<FlushRange> flushRanges() {
    return Collections.unmodifiableList(flushRanges);
  }

  /** The tree the store was created with (recorded once, in the first edit of a manifest). */
  public VersionEdit tree(String name) {
    this.treeName = name;
    return this;
  }

  /** The number of on-disk levels of a node tree. */
  public VersionEdit depth(int n) {
    this.depth = n;
    return this;
  }

  /**
   * Every write numbered up to {@code s} is in table files: recovery skips log records at or
   * below it (a log can hold several memtables when it is replayed after a crash).
   */
  public VersionEdit flushedSequence(long s) {
    this.flushedSequence = s;
    return this;
  }

  public Long flushedSequence() {
    return flushedSequence;
  }

  /**
   * tree=lsbm: the compaction-buffer change installed with this edit. The version applying the
   * edit records which files entered and left the buffer ({@link #bufferAdded()}, {@link
   * #bufferRemoved()}); those go to the manifest.
   */
  public VersionEdit bufferChange(LevelBuffers.Update change) {
    this.bufferChange = change;
    return this;
  }

  public LevelBuffers.Update bufferChange() {
    return bufferChange;
  }

  /** Files that entered a buffer list with this edit (level, number). */
  public List<BufferRecord> bufferAdded() {
    List<BufferRecord> out = new ArrayList<>(legacyBufferAdded);
    if (bufferDiff != null) {
      bufferDiff.added().forEach(a -> out.add(new BufferRecord(a.level(), a.file().fileNumber())));
    }
    return out;
  }

  /** Files that left a buffer list with this edit (level, number). */
  public List<BufferRecord> bufferRemoved() {
    List<BufferRecord> out = new ArrayList<>();
    if (bufferDiff != null) {
      bufferDiff.removed().forEach(r -> out.add(new BufferRecord(r.level(), r.fileNumber())));
    }
    return out;
  }

  /** tree=lsbm: what this edit changed in the buffer (recorded, or decoded from the manifest); null if nothing. */
  public BufferDiff bufferDiff() {
    return bufferDiff;
  }

  /** Records what the edit changes in the buffer: by {@link Version#apply}, or a new manifest's snapshot. */
  VersionEdit bufferDiff(BufferDiff diff) {
    this.bufferDiff = diff.isEmpty() ? null : diff;
    return this;
  }

  /** Places {@code node} on {@code level}, replacing the node with its id there, if any. */
  public VersionEdit putNode(int level, NodeMeta node) {
    putNodes.add(new LevelNode(level, node));
    return this;
  }

  /** Removes the node {@code id} from {@code level}; applied before the puts of the same edit. */
  public VersionEdit removeNode(int level, long id) {
    removedNodes.add(new NodeRemoval(level, id));
    return this;
  }

  public String treeName() {
    return treeName;
  }

  public Integer depth() {
    return depth;
  }

  public List<LevelNode> putNodes() {
    return List.copyOf(putNodes);
  }

  public List<NodeRemoval> removedNodes() {
    return List.copyOf(removedNodes);
  }

  /** Whether the edit changes nodes or the depth of a node tree. */
  public boolean touchesNodes() {
    return depth != null || !putNodes.isEmpty() || !removedNodes.isEmpty();
  }

  public String comparatorName() {
    return comparatorName;
  }

  public Long logNumber() {
    return logNumber;
  }

  public Long nextFileNumber() {
    return nextFileNumber;
  }

  public Long lastSequence() {
    return lastSequence;
  }

  public List<Removal> removed() {
    return List.copyOf(removed);
  }

  public List<LevelFile> added() {
    return List.copyOf(added);
  }

  /** The edit as one manifest record. */
  public byte[] encode() {
    Out out = new Out();
    if (comparatorName != null) {
      out.varint(TAG_COMPARATOR).bytes(comparatorName.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    if (logNumber != null) {
      out.varint(TAG_LOG_NUMBER).varint(logNumber);
    }
    if (nextFileNumber != null) {
      out.varint(TAG_NEXT_FILE).varint(nextFileNumber);
    }
    if (lastSequence != null) {
      out.varint(TAG_LAST_SEQUENCE).varint(lastSequence);
    }
    for (Removal r : removed) {
      out.varint(TAG_REMOVE).varint(r.level()).varint(r.fileNumber());
    }
    for (LevelFile a : added) {
      out.varint(TAG_ADD).varint(a.level());
      encodeFile(out, a.file());
    }
    if (treeName != null) {
      out.varint(TAG_TREE).bytes(treeName.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    for (FlushRange r : flushRanges) {
      out.varint(TAG_FLUSH_RANGE).varint(r.fileNumber()).varint(r.first()).varint(r.last());
    }
    if (depth != null) {
      out.varint(TAG_DEPTH).varint(depth);
    }
    if (flushedSequence != null) {
      out.varint(TAG_FLUSHED_SEQUENCE).varint(flushedSequence);
    }
    for (NodeRemoval r : removedNodes) {
      out.varint(TAG_REMOVE_NODE).varint(r.level()).varint(r.id());
    }
    for (LevelNode p : putNodes) {
      NodeMeta n = p.node();
      out.varint(TAG_PUT_NODE).varint(p.level()).varint(n.id()).bytes(n.loRef()).bytes(n.hiRef())
          .varint(n.file() == null ? 0 : 1);
      if (n.file() != null) {
        encodeFile(out, n.file());
      }
    }
    if (bufferDiff != null) {
      for (var a : bufferDiff.added()) {
        out.varint(TAG_BUFFER_ADD_FILE).varint(a.level());
        encodeFile(out, a.file());
      }
      for (var r : bufferDiff.removed()) {
        out.varint(TAG_BUFFER_REMOVE).varint(r.level()).varint(r.fileNumber());
      }
      for (var owner : bufferDiff.sourcesSet().entrySet()) {
        out.varint(TAG_BUFFER_SOURCES).varint(owner.getKey()).varint(owner.getValue().size());
        for (var b : owner.getValue()) {
          encodeFile(out, b.file());
          out.bytes(b.lo()).bytes(b.hi());
        }
      }
      for (long owner : bufferDiff.sourcesDropped()) {
        out.varint(TAG_BUFFER_SOURCES_DROP).varint(owner);
      }
    }
    return out.toByteArray();
  }

  /**
   * Reads an edit.
   *
   * @throws IllegalArgumentException if the record is malformed
   */
  public static VersionEdit decode(byte[] record) {
    VersionEdit e = new VersionEdit();
    DiffParts diff = new DiffParts();
    int[] pos = {0};
    int limit = record.length;
    while (pos[0] < limit) {
      int tag = (int) Coding.getVarint(record, pos, limit);
      switch (tag) {
        case TAG_COMPARATOR -> e.comparatorName = new String(bytes(record, pos, limit), java.nio.charset.StandardCharsets.UTF_8);
        case TAG_LOG_NUMBER -> e.logNumber = Coding.getVarint(record, pos, limit);
        case TAG_NEXT_FILE -> e.nextFileNumber = Coding.getVarint(record, pos, limit);
        case TAG_LAST_SEQUENCE -> e.lastSequence = Coding.getVarint(record, pos, limit);
        case TAG_REMOVE -> e.remove((int) Coding.getVarint(record, pos, limit), Coding.getVarint(record, pos, limit));
        case TAG_ADD -> {
          int level = (int) Coding.getVarint(record, pos, limit);
          e.add(level, decodeFile(record, pos, limit));
        }
        case TAG_TREE -> e.treeName = new String(bytes(record, pos, limit), java.nio.charset.StandardCharsets.UTF_8);
        case TAG_DEPTH -> e.depth = (int) Coding.getVarint(record, pos, limit);
        case TAG_FLUSHED_SEQUENCE -> e.flushedSequence = Coding.getVarint(record, pos, limit);
        case TAG_REMOVE_NODE -> e.removeNode((int) Coding.getVarint(record, pos, limit), Coding.getVarint(record, pos, limit));
        case TAG_PUT_NODE -> {
          int level = (int) Coding.getVarint(record, pos, limit);
          long id = Coding.getVarint(record, pos, limit);
          byte[] lo = bytes(record, pos, limit);
          byte[] hi = bytes(record, pos, limit);
          long hasFile = Coding.getVarint(record, pos, limit);
          if (hasFile > 1) {
            throw new IllegalArgumentException("bad node file flag " + hasFile);
          }
          e.putNode(level, new NodeMeta(id, lo, hi, hasFile == 1 ? decodeFile(record, pos, limit) : null));
        }
        case TAG_BUFFER_ADD -> e.legacyBufferAdded.add(new BufferRecord((int) Coding.getVarint(record, pos, limit),
            Coding.getVarint(record, pos, limit)));
        case TAG_BUFFER_REMOVE -> diff.removed.add(new BufferDiff.Removal(
            (int) Coding.getVarint(record, pos, limit), Coding.getVarint(record, pos, limit)));
        case TAG_BUFFER_ADD_FILE -> {
          int level = (int) Coding.getVarint(record, pos, limit);
          diff.added.add(new BufferDiff.Added(level, decodeFile(record, pos, limit)));
        }
        case TAG_BUFFER_SOURCES -> {
          long owner = Coding.getVarint(record, pos, limit);
          long n = Coding.getVarint(record, pos, limit);
          if (n < 0 || n > limit - pos[0]) {
            throw new IllegalArgumentException("bad sources count " + n);
          }
          List<BufferFile> l = new ArrayList<>();
          for (long i = 0; i < n; i++) {
            FileMeta f = decodeFile(record, pos, limit);
            l.add(new BufferFile(f, 0, bytes(record, pos, limit), bytes(record, pos, limit),
                KeyFilter.ALL));
          }
          diff.set.put(owner, l);
        }
        case TAG_FLUSH_RANGE -> e.flushRange(Coding.getVarint(record, pos, limit), Coding.getVarint(record, pos, limit),
            Coding.getVarint(record, pos, limit));
        case TAG_BUFFER_SOURCES_DROP -> diff.dropped.add(Coding.getVarint(record, pos, limit));
        default -> throw new IllegalArgumentException("unknown version edit tag " + tag);
      }
    }
    e.bufferDiff(new BufferDiff(diff.added, diff.removed, diff.set, diff.dropped));
    return e;
  }

  /** The buffer records of an edit being decoded. */
  private static final class DiffParts {
    final List<BufferDiff.Added> added = new ArrayList<>();
    final List<BufferDiff.Removal> removed = new ArrayList<>();
    final java.util.Map<Long, List<BufferFile>> set = new java.util.LinkedHashMap<>();
    final List<Long> dropped = new ArrayList<>();
  }

  private static void encodeFile(Out out, FileMeta f) {
    out.varint(f.fileNumber()).varint(f.fileSize()).varint(f.sequenceCount()).varint(f.entries())
        .bytes(f.smallestRef()).bytes(f.largestRef()).varint(f.smallestSequence()).varint(f.largestSequence());
  }

  private static FileMeta decodeFile(byte[] record, int[] pos, int limit) {
    long number = Coding.getVarint(record, pos, limit);
    long size = Coding.getVarint(record, pos, limit);
    int sequences = (int) Coding.getVarint(record, pos, limit);
    long entries = Coding.getVarint(record, pos, limit);
    byte[] smallest = bytes(record, pos, limit);
    byte[] largest = bytes(record, pos, limit);
    long smallestSeq = Coding.getVarint(record, pos, limit);
    long largestSeq = Coding.getVarint(record, pos, limit);
    return new FileMeta(number, size, sequences, entries, smallest, largest, smallestSeq, largestSeq);
  }

  private static byte[] bytes(byte[] src, int[] pos, int limit) {
    long n = Coding.getVarint(src, pos, limit);
    if (n < 0 || n > limit - pos[0]) {
      throw new IllegalArgumentException("bad length " + n);
    }
    byte[] out = new byte[(int) n];
    System.arraycopy(src, pos[0], out, 0, out.length);
    pos[0] += out.length;
    return out;
  }

  /** A small growable encoder. */
  private static final class Out extends ByteArrayOutputStream {
    private final byte[] scratch = new byte[10];

    Out varint(long v) {
      int n = Coding.putVarint(scratch, 0, v);
      write(scratch, 0, n);
      return this;
    }

    Out bytes(byte[] b) {
      varint(b.length);
      write(b, 0, b.length);
      return this;
    }
  }

  @Override
  public String toString() {
    return "edit{log=" + logNumber + " next=" + nextFileNumber + " last=" + lastSequence
        + " -" + removed + " +" + added.stream().map(a -> "L" + a.level() + a.file()).toList()
        + (flushRanges.isEmpty() ? "" : " flushes " + flushRanges)
        + (touchesNodes() ? " depth=" + depth + " -" + removedNodes + " +" + putNodes : "")
        + (bufferAdded().isEmpty() && bufferRemoved().isEmpty() ? "" : " buffer -" + bufferRemoved() + " +" + bufferAdded())
        + (bufferDiff == null || bufferDiff.sourcesSet().isEmpty() ? "" : " sources " + bufferDiff.sourcesSet().keySet()) + "}";
  }
}
