package io.iam.core.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A tiny simulation of a leveled or a tiered LSM tree over a key stream, counting merges and I/Os
 * level by level, so the paper's formulas (1)–(6) ({@link LsmCostFormulas}) and its worked
 * example (Fig. 2a, Fig. 7, Table 1) can be checked against something that actually merges runs.
 * Pure: it holds its runs as sorted {@code long[]} in memory; duplicates are kept (the paper's
 * tuples are not deduplicated).
 *
 * <p>Every B keys form a buffer, sorted and flushed to level 1 (M = ⌊N/B⌋ flushes; a tail of fewer
 * than B keys stays unflushed, as in the formulas). Level i ≥ 1 receives runs of B·T^(i−1)
 * entries.
 *
 * <p><b>Leveled</b> (Fig. 2a): level i holds one run of fewer than B·T^i entries. An arriving run
 * is merged with the resident run (a merge if there is one; the resident is read); if the result
 * reaches B·T^i it moves on to level i+1 at once and is merged there, and so on. The result is
 * written once, at the level where it stays (the paper's row 4: L0 + L1 + L2 written as one run of
 * 24).
 *
 * <p><b>Tiered</b> (Fig. 7): every run that arrives at level i is written there. When level i holds
 * T runs they are merged into one run that arrives at level i+1; the merge reads the T−1 older runs
 * (the newest one is still in memory: it was just flushed or just merged).
 *
 * <p>Per-level counters ({@link LevelStats}), which is what each formula term counts:
 *
 * <ul>
 *   <li>{@code arrivals}: runs arriving at the level (A_i);
 *   <li>{@code kept}: arrivals that stay at the level, A_i − F_i, term (1) — leveled: the result
 *       stays; tiered: the arrival does not complete T runs;
 *   <li>{@code keptEntries}: the entries of those arriving runs; for tiered, term (3) × P;
 *   <li>{@code merges}: leveled, arrivals into a non-empty level; tiered, merges of T runs (F_i,
 *       term (2));
 *   <li>{@code outputEntries}: leveled, the size of the merge result at this level, whether it
 *       stays or moves on, term (4) × P; tiered, the merge outputs;
 *   <li>{@code writtenEntries}, {@code readEntries}: what is physically written at and read from
 *       the level; reads are term (6) × P for leveled and the level-scaled term (5) × P for tiered.
 * </ul>
 */
public final class LsmMergeSimulator {

  /** The merge style. */
  public enum Style { LEVELED, TIERED }

  /** The counters of one level (1 = the first level on disk). */
  public record LevelStats(int level, long arrivals, long kept, long keptEntries, long merges,
      long outputEntries, long writtenEntries, long readEntries) {}

  private static final int ARRIVALS = 0;
  private static final int KEPT = 1;
  private static final int KEPT_ENTRIES = 2;
  private static final int MERGES = 3;
  private static final int OUTPUT = 4;
  private static final int WRITTEN = 5;
  private static final int READ = 6;

  private final Style style;
  private final int b;
  private final int t;
  private final int p;
  private final long[] buffer;
  private int buffered;
  private long flushes;
  private final List<List<long[]>> runs = new ArrayList<>(); // index i−1: level i's runs, oldest first
  private final List<long[]> counters = new ArrayList<>();

  /** A simulator with buffer {@code b}, ratio {@code t} ≥ 2 and pages of {@code p} entries dividing {@code b}. */
  public LsmMergeSimulator(Style style, int b, int t, int p) {
    if (b < 1 || t < 2 || p < 1 || b % p != 0) {
      throw new IllegalArgumentException("need b >= 1, t >= 2, p >= 1 dividing b; got b=" + b + " t=" + t + " p=" + p);
    }
    this.style = style;
    this.b = b;
    this.t = t;
    this.p = p;
    this.buffer = new long[b];
  }

  /** Ingests one key; flushes when the buffer holds B keys. */
  public void add(long key) {
    buffer[buffered++] = key;
    if (buffered == b) {
      long[] run = buffer.clone();
      Arrays.sort(run);
      buffered = 0;
      flushes++;
      if (style == Style.LEVELED) {
        arriveLeveled(1, run);
      } else {
        arriveTiered(1, run);
      }
    }
  }

  /** Ingests every key of {@code keys} in order. */
  public void addAll(long... keys) {
    for (long k : keys) {
      add(k);
    }
  }

  /** M, the buffers flushed so far. */
  public long flushes() {
    return flushes;
  }

  /** Keys waiting in the buffer (fewer than B). */
  public int unflushed() {
    return buffered;
  }

  /** The deepest level holding data (0 if none). */
  public int depth() {
    int d = 0;
    for (int i = 0; i < runs.size(); i++) {
      if (!runs.get(i).isEmpty()) {
        d = i + 1;
      }
    }
    return d;
  }

  /** Level i's runs, oldest first (leveled: at most one). */
  public List<long[]> runs(int level) {
    return level <= runs.size() ? List.copyOf(runs.get(level - 1)) : List.of();
  }

  /** The counters of levels 1 … (deepest level reached). */
  public List<LevelStats> levelStats() {
    List<LevelStats> out = new ArrayList<>();
    for (int i = 0; i < counters.size(); i++) {
      long[] c = counters.get(i);
      out.add(new LevelStats(i + 1, c[ARRIVALS], c[KEPT], c[KEPT_ENTRIES], c[MERGES], c[OUTPUT], c[WRITTEN], c[READ]));
    }
    return out;
  }

  /** The counters of level i (all zero if nothing reached it). */
  public LevelStats level(int i) {
    return i <= counters.size() ? levelStats().get(i - 1) : new LevelStats(i, 0, 0, 0, 0, 0, 0, 0);
  }

  /** Totals: physical merges, page writes and page reads. */
  public LsmCosts costs() {
    long merges = 0;
    long written = 0;
    long read = 0;
    for (long[] c : counters) {
      merges += c[MERGES];
      written += c[WRITTEN];
      read += c[READ];
    }
    return new LsmCosts(merges, written / p, read / p, written, read);
  }

  private void arriveLeveled(int level, long[] incoming) {
    long[] c = level(level, incoming);
    List<long[]> here = runs.get(level - 1);
    long[] merged = incoming;
    if (!here.isEmpty()) {
      long[] resident = here.remove(0);
      c[MERGES]++;
      c[READ] += resident.length;
      merged = merge(List.of(resident, incoming));
    }
    c[OUTPUT] += merged.length;
    if (merged.length >= capacity(level)) {
      arriveLeveled(level + 1, merged);
    } else {
      keep(c, incoming);
      c[WRITTEN] += merged.length;
      here.add(merged);
    }
  }

  private void arriveTiered(int level, long[] incoming) {
    long[] c = level(level, incoming);
    List<long[]> here = runs.get(level - 1);
    c[WRITTEN] += incoming.length;
    here.add(incoming);
    if (here.size() < t) {
      keep(c, incoming);
      return;
    }
    long[] merged = merge(here);
    c[MERGES]++;
    c[READ] += merged.length - incoming.length;
    c[OUTPUT] += merged.length;
    here.clear();
    arriveTiered(level + 1, merged);
  }

  /** The counters of {@code level}, creating the level; counts one arrival. */
  private long[] level(int level, long[] incoming) {
    while (runs.size() < level) {
      runs.add(new ArrayList<>());
      counters.add(new long[7]);
    }
    long[] c = counters.get(level - 1);
    c[ARRIVALS]++;
    return c;
  }

  private static void keep(long[] c, long[] incoming) {
    c[KEPT]++;
    c[KEPT_ENTRIES] += incoming.length;
  }

  /** B·T^level: a leveled level holds fewer entries than this. */
  private long capacity(int level) {
    long cap = b;
    for (int j = 0; j < level; j++) {
      cap = Math.multiplyExact(cap, t);
    }
    return cap;
  }

  private static long[] merge(List<long[]> sorted) {
    int total = 0;
    for (long[] r : sorted) {
      total += r.length;
    }
    long[] out = new long[total];
    int o = 0;
    for (long[] r : sorted) {
      System.arraycopy(r, 0, out, o, r.length);
      o += r.length;
    }
    Arrays.sort(out); // the same result as a k-way merge of sorted runs; the cost model counts entries, not comparisons
    return out;
  }
}
