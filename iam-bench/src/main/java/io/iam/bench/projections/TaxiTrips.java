package io.iam.bench.projections;

/**
 * A generated stream of taxi-like trips, a stand-in for the NYC taxi data of the Min-Max paper (Ton
 * That et al., SSDBM 2021, §5): trip {@code i} is a pure function of the seed and {@code i}, so the
 * same seed gives the same stream on every run and any trip can be recomputed without the others.
 *
 * <h2>The model</h2>
 *
 * Trips arrive in ID order: trip {@code i} has ID {@code i}, so Projection 1 (keyed on the ID) is
 * sorted. The two measures are in hundredths (of a mile, of a dollar) and follow a <b>stable
 * distribution with drift</b>, the premise under which the paper says Min-Max avoids merges:
 *
 * <pre>
 *   trip_distance(i) = 100·i + 100·W·X(i)          X(i) = ½·S(i) + ½·U(i)²
 *   total_amount(i)  = 2.5·trip_distance(i) + 250·W·0.4·V(i)³
 * </pre>
 *
 * <ul>
 *   <li>{@code 100·i} is the drift: the level moves by one hundredth-unit step per arrival.
 *   <li>{@code W} is the {@linkplain #disorder() disorder}, in records: the deviation from the drift
 *       lies in [0, 100·W), so a trip lands at most about W places from its place in key order
 *       ({@code trip_distance}), or 1.4·W ({@code total_amount}).
 *   <li>{@code X(i)} has the same distribution at every {@code i} (stable): half a <i>smooth</i> part
 *       {@code S(i)}, uniform values at every {@value #SMOOTH_PERIOD}th trip joined by straight lines
 *       (neighbouring trips see similar traffic: local correlation), and half a <i>skewed</i> part
 *       {@code U(i)²} with U uniform on [0, 1) (short trips are the common ones).
 *   <li>{@code total_amount} follows the distance at 2.5 per unit plus a tip, {@code V(i)³} with V
 *       uniform (most tips small): correlated with the distance, not a copy of it.
 * </ul>
 *
 * Projection 2 (keyed on {@code trip_distance}, then ID) and Projection 3 ({@code total_amount},
 * then ID) therefore arrive <i>nearly sorted</i>: every key is within a bounded distance of its
 * sorted place, the inversions are a small fraction of a shuffle's, and the distribution of a
 * window of keys does not change along the stream. {@link Sortedness} measures it. The real taxi
 * data is not sorted by distance or amount; the model is the paper's favourable case made exact, and
 * {@code W} moves it towards a shuffle.
 */
public final class TaxiTrips {

  /** Trips between two points of the smooth part {@code S}. */
  static final int SMOOTH_PERIOD = 256;

  /** Hundredths of drift per arrival. */
  static final long STEP = 100;

  /** The default disorder W, in records. */
  public static final int DEFAULT_DISORDER = 1000;

  private static final long SMOOTH = 0x5EED_0001L;
  private static final long SKEW = 0x5EED_0002L;
  private static final long TIP = 0x5EED_0003L;
  private static final long FILLER = 0x5EED_0004L;

  private final long seed;
  private final int disorder;

  /**
   * @param seed every draw of the stream comes from it
   * @param disorder W, in records, at least 1
   */
  public TaxiTrips(long seed, int disorder) {
    if (disorder < 1) {
      throw new IllegalArgumentException("disorder must be at least 1 record: " + disorder);
    }
    this.seed = seed;
    this.disorder = disorder;
  }

  public long seed() {
    return seed;
  }

  /** W: how far, in records, a trip's measures may put it from its sorted place. */
  public int disorder() {
    return disorder;
  }

  /** Trip {@code id}'s distance in hundredths. */
  public long distance(long id) {
    double x = 0.5 * smooth(id) + 0.5 * square(uniform(id, SKEW));
    return STEP * id + (long) (STEP * disorder * x);
  }

  /** Trip {@code id}'s total amount in hundredths. */
  public long amount(long id) {
    double v = uniform(id, TIP);
    return distance(id) * 5 / 2 + (long) (STEP * 2.5 * disorder * 0.4 * v * v * v);
  }

  /**
   * Column {@code column} of trip {@code id} that no projection is keyed on (passenger count,
   * pick-up time, fares and so on, as opaque numbers), for the projections' values.
   */
  public long filler(long id, int column) {
    return mix(mix(id ^ FILLER * (column + 1)) ^ seed);
  }

  /** {@code S(i)}: straight lines between uniform draws at every {@value #SMOOTH_PERIOD}th trip. */
  private double smooth(long id) {
    long point = Math.floorDiv(id, SMOOTH_PERIOD);
    double along = (double) Math.floorMod(id, SMOOTH_PERIOD) / SMOOTH_PERIOD;
    return (1 - along) * uniform(point, SMOOTH) + along * uniform(point + 1, SMOOTH);
  }

  private static double square(double u) {
    return u * u;
  }

  /** A uniform draw on [0, 1) for {@code (index, stream)}, from the seed. */
  private double uniform(long index, long stream) {
    return (mix(mix(index * 0x9E37_79B9_7F4A_7C15L + stream) ^ seed) >>> 11) * 0x1.0p-53;
  }

  /** SplitMix64's finalizer: a bijection of longs whose outputs look independent. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }
}
