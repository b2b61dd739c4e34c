package io.iam.core.tree.iam;

import java.math.BigInteger;

/**
 * Chooses the IAM-tree's mixed level {@code m} and its sequence cap {@code k} (paper §5.1.3).
 *
 * <p>With D_j the bytes stored in level j (1 ≤ j ≤ n), t the fan-out and M the cache size, the
 * bytes of all appended sequences when L_m is the mixed level with cap k are estimated as
 *
 * <pre>
 *   Σ_{j=1}^{m-1} D_j + S_{m,k},   S_{m,k} = D_m · (k − 1) / t          (formula 1)
 * </pre>
 *
 * and must fit the cache: {@code Σ_{j<m} D_j + S_{m,k} ≤ M} (formula 2), or ≤ M/2 in the
 * paper's variant that leaves half the cache to merge-generated sequences. The chooser returns the
 * largest m in 1..n+1, then the largest k in 1..k_max, satisfying it. Since S_{m,1} = 0, m is the
 * largest level whose upper levels fit; m = n+1 means every level appends, reported with k = 1.
 * Comparisons are exact (no rounding).
 */
public final class MkChooser {

  /** The chosen mixed level {@code m} (1..n+1) and sequence cap {@code k} (1..k_max). */
  public record Choice(int m, int k) {}

  /**
   * What a level holds, as the engine measures it for {@link #chooseMeasured}.
   *
   * @param bytes D_j, the bytes of the level's files
   * @param nodes N_j, its nodes that hold a file
   * @param appendedBytes what every sequence but the oldest of each of its nodes takes in memory
   *     (the engine counts their data blocks as the block cache weighs them)
   * @param appendedSequences how many such sequences it holds
   */
  public record LevelShape(long bytes, long nodes, long appendedBytes, long appendedSequences) {
    public LevelShape {
      if (bytes < 0 || nodes < 0 || appendedBytes < 0 || appendedSequences < 0) {
        throw new IllegalArgumentException("negative level shape: " + bytes + ", " + nodes + ", " + appendedBytes
            + ", " + appendedSequences);
      }
    }
  }

  /** {@link #chooseMeasured} caps k once the appended sequences held now reach this share of M. */
  static final double FULL = 0.95;

  private MkChooser() {}

  /**
   * @param levelBytes D_1..D_n, each ≥ 0 (index 0 is level 1)
   * @param cacheBytes M ≥ 0
   * @param fanout t ≥ 1
   * @param kMax the cap on k, ≥ 1
   * @param halfMemory use M/2 instead of M
   */
  public static Choice choose(long[] levelBytes, long cacheBytes, int fanout, int kMax, boolean halfMemory) {
    if (cacheBytes < 0 || fanout < 1 || kMax < 1) {
      throw new IllegalArgumentException("need M >= 0, t >= 1, k_max >= 1");
    }
    int n = levelBytes.length;
    BigInteger t = BigInteger.valueOf(fanout);
    // Scale both sides by t (and by 2 for M/2): t·Σ + D_m·(k−1) ≤ t·M  (or 2t·Σ + 2·D_m·(k−1) ≤ t·M).
    BigInteger scale = BigInteger.valueOf(halfMemory ? 2 : 1);
    BigInteger budget = BigInteger.valueOf(cacheBytes).multiply(t);
    BigInteger prefix = BigInteger.ZERO;
    int m = 1;
    BigInteger prefixAtM = BigInteger.ZERO;
    for (int level = 1; level <= n + 1; level++) {
      if (prefix.multiply(t).multiply(scale).compareTo(budget) > 0) {
        break;
      }
      m = level;
      prefixAtM = prefix;
      if (level <= n) {
        if (levelBytes[level - 1] < 0) {
          throw new IllegalArgumentException("negative level size: " + levelBytes[level - 1]);
        }
        prefix = prefix.add(BigInteger.valueOf(levelBytes[level - 1]));
      }
    }
    if (m == n + 1) {
      return new Choice(m, 1);
    }
    BigInteger dm = BigInteger.valueOf(levelBytes[m - 1]);
    BigInteger fixed = prefixAtM.multiply(t).multiply(scale);
    int k = 1;
    for (int candidate = 2; candidate <= kMax; candidate++) {
      BigInteger need = fixed.add(dm.multiply(BigInteger.valueOf(candidate - 1L)).multiply(scale));
      if (need.compareTo(budget) > 0) {
        break;
      }
      k = candidate;
    }
    return new Choice(m, k);
  }

  /**
   * The same choice with the paper's estimate made from what the levels hold rather than from D_m
   * alone, so that the appended sequences it promises to cache really fit M:
   *
   * <pre>
   *   S_{m,k} = N_m · (k − 1)/2 · a_m,   a_m = max(C_t / t, A_m / c_m)
   *   Σ_{j<m} D_j + Σ_{j>m} A_j + S_{m,k} ≤ M − headroom   (or M/2 − headroom)
   * </pre>
   *
   * This is formula (1) before the paper substitutes N_m = D_m / (C_t/2) and a_m = C_t/t: a node
   * holds a uniformly random 0..k−1 appended sequences, (k−1)/2 on average, each of a_m bytes. It
   * uses the real node count N_m (nodes cut by merges and splits are often far below C_t/2, which
   * made formula (1) promise more than the cache held) and the real mean size a_m of the appended
   * sequences already at level m (A_m bytes in c_m sequences; C_t/t when there are none, and never
   * less). Σ_{j>m} A_j counts the appended sequences of nodes that moved below m by a metadata
   * change and keep them until their next merge; the engine keeps those cached too. The largest m
   * is chosen whose levels above it, together with every appended sequence held now from m down
   * (Σ_{j<m} D_j + Σ_{j≥m} A_j), fit; then the largest k. (Counting A_m matters when level m still
   * holds the sequences of a larger k: with k = 1 the estimate S is 0, and the cache would be
   * promised bytes it already holds.) If the fixed part plus A_m already exceeds {@value #FULL} of
   * the budget, k is lowered by one more step (never below 1), so that the fuller nodes merge.
   *
   * <p>The budget is M (or M/2) less {@code headroomBytes}: what the jobs running when the choice
   * is made can add to the cache before the next choice sees it (the engine passes C_t, a memtable
   * flush's new level-1 sequences, filled as they are written). Without it the cache's protected
   * pool ran out of room at the busiest moments and demoted blocks the rule meant to keep
   * (docs/iam-tree.md, "Design decisions").
   *
   * @param levels levels 1..n (index 0 is level 1)
   * @param cacheBytes M ≥ 0
   * @param fanout t ≥ 1
   * @param kMax the cap on k, ≥ 1
   * @param halfMemory use M/2 instead of M
   * @param nodeCapacity C_t ≥ 1
   * @param headroomBytes ≥ 0, kept free of the budget
   */
  public static Choice chooseMeasured(java.util.List<LevelShape> levels, long cacheBytes, int fanout, int kMax,
      boolean halfMemory, long nodeCapacity, long headroomBytes) {
    return chooseMeasured(levels, cacheBytes, fanout, kMax, halfMemory, nodeCapacity, headroomBytes, 0);
  }

  /**
   * {@link #chooseMeasured(java.util.List, long, int, int, boolean, long, long)} for a tree that
   * keeps only appended sequences in memory (every sequence of a node but its oldest, on every
   * level): a level above {@code appendingAbove}, which appends now, costs its appended bytes A_j
   * instead of D_j. A level that does not append now still costs D_j, what the paper's rule
   * assumes it would hold if it began to. {@code appendingAbove} ≤ 1 is the paper's rule.
   *
   * @param appendingAbove the current mixed level (its levels above append now), or 0
   */
  public static Choice chooseMeasured(java.util.List<LevelShape> levels, long cacheBytes, int fanout, int kMax,
      boolean halfMemory, long nodeCapacity, long headroomBytes, int appendingAbove) {
    if (cacheBytes < 0 || fanout < 1 || kMax < 1 || nodeCapacity < 1 || headroomBytes < 0) {
      throw new IllegalArgumentException("need M >= 0, t >= 1, k_max >= 1, C_t >= 1, headroom >= 0");
    }
    int n = levels.size();
    Ledger ledger = Ledger.of(levels, cacheBytes, halfMemory, headroomBytes, appendingAbove);
    double budget = ledger.budget();
    double[] above = ledger.above();
    double[] below = ledger.below();
    int m = 1;
    for (int level = n + 1; level >= 1; level--) {
      if (ledger.heldAt(level) <= budget) {
        m = level;
        break;
      }
    }
    if (m == n + 1) {
      return new Choice(m, 1);
    }
    LevelShape mixed = levels.get(m - 1);
    double perSequence = (double) nodeCapacity / fanout;
    if (mixed.appendedSequences() > 0) {
      perSequence = Math.max(perSequence, (double) mixed.appendedBytes() / mixed.appendedSequences());
    }
    double fixed = above[m] + below[m];
    int k = 1;
    for (int candidate = 2; candidate <= kMax; candidate++) {
      if (fixed + mixed.nodes() * (candidate - 1) / 2.0 * perSequence > budget) {
        break;
      }
      k = candidate;
    }
    if (fixed + mixed.appendedBytes() > FULL * budget && mixed.nodes() > 0) {
      // What level m holds now already (nearly) fills the budget, typically just after k fell as
      // the data grew and nodes still hold the old cap. One step lower makes every node holding
      // k − 1 or more sequences merge at its next flush, which is where the appended bytes are.
      // (Capping at the mean number of sequences per node, as before, dropped k to 1 or 2 and
      // back many times during a load: the mixed level then merged like a merging level.)
      k = Math.max(1, k - 1);
    }
    return new Choice(m, k);
  }

  /**
   * Whether {@code extraBytes} more protected bytes fit the budget with {@code m} as the mixed
   * level: {@code Σ_{j<m} cost_j + Σ_{j≥m} A_j + extra ≤ M − headroom} (or M/2), every level
   * counted as {@link #chooseMeasured(java.util.List, long, int, int, boolean, long, long, int)}
   * counts it and level m at what it holds now. This is the inequality that chose m; the engine
   * asks it before a node moves down with its appended sequences kept (no rewrite), and the next
   * choice then counts them, lowering k if they leave level m too little room.
   *
   * @param m the current mixed level, 1..n+1
   */
  public static boolean fits(java.util.List<LevelShape> levels, long cacheBytes, boolean halfMemory,
      long headroomBytes, int appendingAbove, int m, long extraBytes) {
    if (m < 1 || m > levels.size() + 1 || extraBytes < 0) {
      throw new IllegalArgumentException("need 1 <= m <= n + 1 and extra >= 0: m=" + m + ", extra=" + extraBytes);
    }
    Ledger ledger = Ledger.of(levels, cacheBytes, halfMemory, headroomBytes, appendingAbove);
    return ledger.heldAt(m) + extraBytes <= ledger.budget();
  }

  /**
   * The budget, and what the levels cost against it.
   *
   * @param above above[m] = Σ_{j<m} cost_j, where cost_j is A_j for j < appendingAbove and D_j otherwise
   * @param below below[m] = Σ_{j>m} A_j
   */
  private record Ledger(double budget, double[] above, double[] below) {

    static Ledger of(java.util.List<LevelShape> levels, long cacheBytes, boolean halfMemory, long headroomBytes,
        int appendingAbove) {
      if (cacheBytes < 0 || headroomBytes < 0) {
        throw new IllegalArgumentException("need M >= 0, headroom >= 0");
      }
      int n = levels.size();
      double budget = Math.max(0, (halfMemory ? cacheBytes / 2.0 : cacheBytes) - headroomBytes);
      double[] above = new double[n + 2];
      double[] below = new double[n + 2];
      for (int level = 1; level <= n; level++) {
        LevelShape l = levels.get(level - 1);
        above[level + 1] = above[level] + (level < appendingAbove ? l.appendedBytes() : l.bytes());
      }
      for (int level = n; level >= 1; level--) {
        below[level - 1] = below[level] + levels.get(level - 1).appendedBytes();
      }
      return new Ledger(budget, above, below);
    }

    /** Σ_{j<m} cost_j + Σ_{j≥m} A_j: what the cache holds now if m is the mixed level. */
    double heldAt(int m) {
      return above[m] + below[m - 1];
    }
  }
}
