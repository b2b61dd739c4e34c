package io.iam.core.engine;

import io.iam.core.fs.Fs;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The table, log and manifest numbers that may be in a store's directory, so that the purge after
 * every background job need not list and parse the whole directory: a node tree keeps thousands of
 * files, and listing them after each of thousands of jobs cost more CPU than the merges did.
 *
 * <p>Contract: a file the store creates is reported here ({@link #tableMayExist}, {@link
 * #logMayExist}, {@link #manifestMayExist}) after it is created and no later than the first purge
 * that could find it obsolete (the store reports every live and pending table and the current
 * manifest at each purge), and forgotten once deleted ({@link #forgetTable} …). Deciding what is obsolete stays
 * with the store; this class only says which names to consider. Anything not reported (a file left
 * by a crash, a path that forgot to report) is found by a full listing, taken at the first purge
 * and then every {@value #FULL_LISTING_EVERY}th, so at worst it is deleted late, never wrongly.
 * Thread-safe.
 */
final class StoreDirectory {

  /** Every this many purges, the names come from listing the directory instead of memory. */
  static final int FULL_LISTING_EVERY = 64;

  private final Fs fs;
  private final Path dir;
  private final Set<Long> tables = new HashSet<>();
  private final Set<Long> logs = new HashSet<>();
  private final Set<Long> manifests = new HashSet<>();
  private int purgesSinceListing = FULL_LISTING_EVERY;

  StoreDirectory(Fs fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /** The numbers to consider in one purge, copied so the caller may forget entries as it deletes. */
  record Names(Set<Long> tables, Set<Long> logs, Set<Long> manifests) {}

  /** The names one purge considers: from a listing of the directory when one is due, else from memory. */
  synchronized Names forPurge() throws IOException {
    if (++purgesSinceListing >= FULL_LISTING_EVERY) {
      Set<Long> t = new HashSet<>();
      Set<Long> l = new HashSet<>();
      Set<Long> m = new HashSet<>();
      for (Path p : fs.list(dir)) {
        addIfPresent(t, StoreFiles.tableNumber(p));
        addIfPresent(l, StoreFiles.logNumber(p));
        addIfPresent(m, StoreFiles.manifestNumber(p));
      }
      // Reports wait for the listing (this lock), and every purge reports the live and pending
      // tables and the current manifest again, so the listing may replace what memory held.
      tables.clear();
      tables.addAll(t);
      logs.clear();
      logs.addAll(l);
      manifests.clear();
      manifests.addAll(m);
      purgesSinceListing = 0;
    }
    return new Names(new HashSet<>(tables), new HashSet<>(logs), new HashSet<>(manifests));
  }

  private static void addIfPresent(Set<Long> set, OptionalLong n) {
    n.ifPresent(set::add);
  }

  synchronized void tableMayExist(long number) {
    tables.add(number);
  }

  synchronized void tablesMayExist(Set<Long> numbers) {
    tables.addAll(numbers);
  }

  synchronized void logMayExist(long number) {
    logs.add(number);
  }

  synchronized void manifestMayExist(long number) {
    manifests.add(number);
  }

  synchronized void forgetTable(long number) {
    tables.remove(number);
  }

  synchronized void forgetLog(long number) {
    logs.remove(number);
  }

  synchronized void forgetManifest(long number) {
    manifests.remove(number);
  }
}
