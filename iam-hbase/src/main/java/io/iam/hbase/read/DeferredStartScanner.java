package io.iam.hbase.read;

import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;

/**
 * A store file scanner that does not touch its file while a forward seek lands before the file's
 * first row: it only remembers the seek and shows the scan's heap a placeholder, the first possible
 * cell of the file's first row. The heap reads a scanner's cell to order it and asks for a real
 * seek ({@link #enforceSeek}) only when that scanner reaches the top; so a short scan never seeks
 * the files that begin after the rows it returns.
 *
 * <p>HBase's own lazy seek places every file's placeholder at the scan's start row, and a store
 * gives a forward scan without a stop row every file at or after its start; in a tree of hundreds
 * of HFiles with disjoint ranges per level, that is one block read per file for every scan.
 *
 * <p>Contract kept for the heap: the placeholder sorts strictly after the seek key (a seek is
 * deferred only if its row is before the file's first row) and at or before the file's first cell,
 * so the heap's order and its seek loop stay correct. Reverse scans, compactions and any seek
 * that lands inside the file behave exactly as HBase's scanner.
 */
public final class DeferredStartScanner extends StoreFileScanner {

  private final Cell placeholder;
  private final CellComparator comparator;
  /** The seek not yet done; null once it is done or there is none. */
  private Cell deferred;
  /** True while a real seek is being done: no seek may be deferred then. */
  private boolean seeking;
  /** Whether the file was ever really positioned; for tests. */
  private boolean positioned;

  /** The same arguments as HBase's {@link StoreFileScanner}. */
  public DeferredStartScanner(StoreFileReader reader, HFileScanner hfs, boolean useMvcc, boolean hasMvcc,
      long readPoint, long scannerOrder, boolean canOptimizeForNonNullColumn, boolean fastSeekingEncoding) {
    super(reader, hfs, useMvcc, hasMvcc, readPoint, scannerOrder, canOptimizeForNonNullColumn,
        fastSeekingEncoding);
    this.comparator = reader.getComparator();
    this.placeholder = reader.getFirstKey().map(PrivateCellUtil::createFirstOnRow).orElse(null);
  }

  /**
   * Remembers a seek to {@code key} instead of doing it, if it can wait: no real seek is under way
   * and its row is before the file's first row. Returns whether it did.
   */
  private boolean deferred(Cell key) {
    if (seeking || placeholder == null || comparator.compareRows(key, placeholder) >= 0) {
      return false;
    }
    deferred = key;
    return true;
  }

  @Override
  public Cell peek() {
    return deferred != null ? placeholder : super.peek();
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    return deferred(key) || real(() -> super.seek(key));
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    if (deferred != null) {
      // Never positioned since the deferred seek: a reseek is a seek.
      return seek(key);
    }
    return real(() -> super.reseek(key));
  }

  @Override
  public boolean requestSeek(Cell key, boolean forward, boolean useBloom) throws IOException {
    return deferred(key) || real(() -> super.requestSeek(key, forward, useBloom));
  }

  @Override
  public boolean realSeekDone() {
    return deferred == null && super.realSeekDone();
  }

  @Override
  public void enforceSeek() throws IOException {
    Cell key = deferred;
    real(() -> {
      if (key != null) {
        return super.seek(key);
      }
      super.enforceSeek();
      return true;
    });
  }

  @Override
  public Cell next() throws IOException {
    if (deferred != null) {
      enforceSeek();
    }
    return super.next();
  }

  @Override
  public Cell getNextIndexedKey() {
    return deferred != null ? null : super.getNextIndexedKey();
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    return real(() -> super.seekToPreviousRow(key));
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    return real(super::seekToLastRow);
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    return real(() -> super.backwardSeek(key));
  }

  /**
   * Runs a positioning call of HBase's scanner for real: what was deferred is dropped (the call
   * positions the file itself), and nothing it calls back into is deferred.
   */
  private boolean real(Move move) throws IOException {
    boolean outer = seeking;
    deferred = null;
    seeking = true;
    positioned = true;
    try {
      return move.run();
    } finally {
      seeking = outer;
    }
  }

  /** One positioning call of the scanner. */
  @FunctionalInterface
  private interface Move {
    boolean run() throws IOException;
  }

  @Override
  public void close() {
    deferred = null;
    super.close();
  }

  /** Whether the file was ever really positioned (sought, or read from); for tests. */
  boolean positioned() {
    return positioned;
  }
}
