package io.iam.core.table;

import io.iam.core.cache.BlockCache;
import io.iam.core.fs.Fs;
import io.iam.core.fs.FsFile;
import io.iam.core.key.InternalKeyComparator;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads the committed sequences of one MSTable file. {@link #open} reads and verifies the footer
 * and every sequence's metadata (block index, Bloom filter, properties) into memory in two reads;
 * data blocks are then read on demand through the {@link BlockCache}, keyed by (file number, block
 * offset), and verified by their checksums before they are cached.
 *
 * <p>A reader sees the sequences committed when it was opened; open a new reader to see later
 * appends. Thread-safe: any number of threads may use one reader and its {@link SequenceReader}s
 * concurrently (each {@link TableIterator} belongs to one thread).
 */
public final class MSTableReader implements Closeable {

  private final FsFile file;
  private final Path path;
  private final long fileNumber;
  private final long fileSize;
  private final List<SequenceReader> sequences;
  private final List<SequenceHandle> handles;

  private MSTableReader(FsFile file, Path path, long fileNumber, long fileSize, List<SequenceReader> sequences) {
    this.file = file;
    this.path = path;
    this.fileNumber = fileNumber;
    this.fileSize = fileSize;
    this.sequences = sequences;
    List<SequenceHandle> hs = new ArrayList<>(sequences.size());
    for (SequenceReader s : sequences) {
      hs.add(s.handle());
    }
    this.handles = List.copyOf(hs);
  }

  /**
   * Opens a table file with all the sequences its footer records.
   *
   * @param cache where data blocks are cached; {@code null} reads every block from the file (for
   *     one-pass reads such as compactions that should not disturb the cache)
   * @param opts accepted for symmetry with the writer; the format is self-describing, so reading
   *     does not depend on it
   * @throws TableCorruptionException if the footer or any metadata fails verification
   */
  public static MSTableReader open(Fs fs, Path path, long fileNumber, BlockCache cache, TableOptions opts,
      InternalKeyComparator cmp) throws IOException {
    return open(fs, path, fileNumber, cache, opts, cmp, -1);
  }

  /**
   * Opens a table file exposing only its oldest {@code sequenceCount} sequences: those the
   * manifest recorded as committed. Sequences appended after them (committed to the file but not
   * yet to the manifest when the store stopped) are ignored.
   *
   * @param sequenceCount sequences to expose, or -1 for all
   * @throws TableCorruptionException if the file holds fewer than {@code sequenceCount} sequences,
   *     or fails verification
   */
  public static MSTableReader open(Fs fs, Path path, long fileNumber, BlockCache cache, TableOptions opts,
      InternalKeyComparator cmp, int sequenceCount) throws IOException {
    return open(fs, path, fileNumber, cache, true, opts, cmp, sequenceCount);
  }

  /**
   * Opens a table file, like {@link #open(Fs, Path, long, BlockCache, TableOptions,
   * InternalKeyComparator, int)}, for one pass over its sequences that leaves the cache as it was:
   * a block resident in {@code cache} is taken from it ({@link BlockCache#peek}), any other is read
   * from the file, ahead of need, and not cached. RocksDB's compactions read so ({@code
   * fill_cache=false}); a node job reads the node it flushes so, whose appended sequences the
   * IAM-tree keeps in the cache.
   */
  public static MSTableReader openLookOnly(Fs fs, Path path, long fileNumber, BlockCache cache, TableOptions opts,
      InternalKeyComparator cmp, int sequenceCount) throws IOException {
    return open(fs, path, fileNumber, Objects.requireNonNull(cache, "cache"), false, opts, cmp, sequenceCount);
  }

  private static MSTableReader open(Fs fs, Path path, long fileNumber, BlockCache cache, boolean fill,
      TableOptions opts, InternalKeyComparator cmp, int sequenceCount) throws IOException {
    Objects.requireNonNull(opts, "opts");
    Objects.requireNonNull(cmp, "cmp");
    if (sequenceCount < -1) {
      throw new IllegalArgumentException("sequenceCount must be -1 or at least 0: " + sequenceCount);
    }
    FsFile f = fs.open(path, Fs.Mode.READ);
    try {
      TableMetadata.Loaded loaded = TableMetadata.load(f, path, sequenceCount, true, cmp);
      List<SequenceReader> seqs = new ArrayList<>(loaded.sequences().size());
      for (TableMetadata.Sequence s : loaded.sequences()) {
        seqs.add(new SequenceReader(f, path, fileNumber, cache, fill, cmp, s));
      }
      return new MSTableReader(f, path, fileNumber, loaded.fileSize(), List.copyOf(seqs));
    } catch (IOException | RuntimeException e) {
      try {
        f.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * A reader of the same open file exposing its oldest {@code sequenceCount} sequences, for a
   * file appended to since this reader was opened. Sequences this reader already has are reused;
   * the two readers share the file, so closing either closes both.
   *
   * @throws TableCorruptionException if the file holds fewer sequences or fails verification
   */
  public MSTableReader withSequences(int sequenceCount, BlockCache cache, InternalKeyComparator cmp) throws IOException {
    if (sequenceCount == sequences.size()) {
      return this;
    }
    TableMetadata.Loaded loaded = TableMetadata.load(file, path, sequenceCount, true, cmp);
    List<SequenceReader> seqs = new ArrayList<>(loaded.sequences().size());
    for (int i = 0; i < loaded.sequences().size(); i++) {
      seqs.add(i < sequences.size() ? sequences.get(i)
          : new SequenceReader(file, path, fileNumber, cache, true, cmp, loaded.sequences().get(i)));
    }
    return new MSTableReader(file, path, fileNumber, loaded.fileSize(), List.copyOf(seqs));
  }

  /** Handles of the sequences, oldest first. */
  public List<SequenceHandle> sequences() {
    return handles;
  }

  public int sequenceCount() {
    return sequences.size();
  }

  /**
   * The {@code i}-th sequence, 0 being the oldest.
   *
   * @throws IndexOutOfBoundsException if there is no such sequence
   */
  public SequenceReader sequence(int i) {
    return sequences.get(i);
  }

  /** Length of the file when it was opened (the capacity, for a capacity file). */
  public long fileSize() {
    return fileSize;
  }

  public long fileNumber() {
    return fileNumber;
  }

  public Path path() {
    return path;
  }

  /** Closes the file; the reader and its sequence readers must not be used afterwards. */
  @Override
  public void close() throws IOException {
    file.close();
  }

  @Override
  public String toString() {
    return "MSTableReader[" + path + ", " + sequences.size() + " sequences]";
  }
}
