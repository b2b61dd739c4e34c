package io.iam.bench.projections;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TaxiTripsTest {

  private static final int N = 20_000;
  private static final int W = 500;

  @Test
  void theSameSeedGivesTheSameStreamAndAnotherSeedAnother() {
    TaxiTrips a = new TaxiTrips(7, W);
    TaxiTrips b = new TaxiTrips(7, W);
    TaxiTrips c = new TaxiTrips(8, W);
    for (Projection p : Projection.values()) {
      long[] values = p.attributes(a, N);
      assertArrayEquals(values, p.attributes(b, N), p.label());
      if (p != Projection.P1) {
        assertFalse(Arrays.equals(values, p.attributes(c, N)), p.label());
      }
    }
    // Any trip can be recomputed alone, in any order: a pure function of (seed, id).
    for (long id : new long[] {N - 1, 0, 12_345, 3}) {
      for (Projection p : Projection.values()) {
        assertArrayEquals(p.key(a, id), p.key(b, id));
        assertArrayEquals(p.value(a, id), p.value(b, id));
      }
    }
  }

  @Test
  void projectionOneIsSortedAndTheMeasuresAreNearlySortedUnlikeAShuffle() {
    TaxiTrips trips = new TaxiTrips(42, W);
    assertEquals(new Sortedness(N, 0, 0, 1), Sortedness.of(Projection.P1.attributes(trips, N)));
    for (Projection p : new Projection[] {Projection.P2, Projection.P3}) {
      long[] values = p.attributes(trips, N);
      Sortedness nearly = Sortedness.of(values);
      Sortedness shuffled = Sortedness.of(shuffle(values, new SplittableRandom(1)));
      // Every trip within about W places of its sorted place (1.4 W for the amount, which adds a tip).
      assertTrue(nearly.maxDisplacement() > 0 && nearly.maxDisplacement() <= 1.5 * W, p + ": " + nearly);
      assertTrue(nearly.inversionFraction() > 0 && nearly.inversionFraction() < 0.05, p + ": " + nearly);
      // A shuffle of the very same values: displaced across the stream, about half the pairs inverted.
      assertTrue(shuffled.maxDisplacement() > N / 2, p + " shuffled: " + shuffled);
      assertTrue(Math.abs(shuffled.inversionFraction() - 0.5) < 0.02, p + " shuffled: " + shuffled);
      assertTrue(nearly.inversionFraction() < shuffled.inversionFraction() / 10, p.label());
    }
  }

  @Test
  void moreDisorderIsLessSorted() {
    long[] tight = Projection.P2.attributes(new TaxiTrips(42, 100), N);
    long[] loose = Projection.P2.attributes(new TaxiTrips(42, 2000), N);
    Sortedness t = Sortedness.of(tight);
    Sortedness l = Sortedness.of(loose);
    assertTrue(t.inversionFraction() < l.inversionFraction() && t.maxDisplacement() < l.maxDisplacement(),
        t + " vs " + l);
  }

  @Test
  void theDeviationFromTheDriftHasTheSameDistributionAlongTheStream() {
    TaxiTrips trips = new TaxiTrips(42, W);
    int half = N / 2;
    double[] first = new double[half];
    double[] second = new double[half];
    for (int i = 0; i < N; i++) {
      // The deviation from the drift, in units of the window: in [0, 1).
      double x = (trips.distance(i) - TaxiTrips.STEP * i) / (double) (TaxiTrips.STEP * W);
      assertTrue(x >= 0 && x < 1, "trip " + i + ": " + x);
      (i < half ? first : second)[i % half] = x;
    }
    Arrays.sort(first);
    Arrays.sort(second);
    for (double q : new double[] {0.1, 0.25, 0.5, 0.75, 0.9}) {
      int at = (int) (q * half);
      assertEquals(first[at], second[at], 0.03, "quantile " + q);
    }
    // Skewed as trip lengths are: the median below the middle of the window.
    assertTrue(first[half / 2] < 0.5, "median " + first[half / 2]);
  }

  @Test
  void keysAreOrderPreservingEncodingsOfAttributeThenId() {
    SplittableRandom random = new SplittableRandom(3);
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    for (int i = 0; i < 20_000; i++) {
      long a1 = i < 25 ? edges[i % 5] : random.nextLong();
      long a2 = i < 25 ? edges[i / 5] : random.nextInt(3) == 0 ? a1 : random.nextLong();
      long id1 = random.nextLong(1 << 20);
      long id2 = random.nextLong(1 << 20);
      int tuples = a1 != a2 ? Long.compare(a1, a2) : Long.compare(id1, id2);
      int bytes = Arrays.compareUnsigned(Projection.encode(a1, id1), Projection.encode(a2, id2));
      assertEquals(Integer.signum(tuples), Integer.signum(bytes), a1 + "/" + id1 + " vs " + a2 + "/" + id2);
      assertEquals(Integer.signum(Long.compare(a1, a2)),
          Integer.signum(Arrays.compareUnsigned(Projection.encode(a1), Projection.encode(a2))));
    }
    // A range over attribute values holds every key with those values, whatever its ID.
    TaxiTrips trips = new TaxiTrips(42, W);
    byte[] key = Projection.P2.key(trips, 77);
    long d = trips.distance(77);
    assertTrue(Arrays.compareUnsigned(Projection.P2.rangeStart(d), key) < 0);
    assertTrue(Arrays.compareUnsigned(Projection.P2.rangeEnd(d), key) > 0);
    assertTrue(Arrays.compareUnsigned(Projection.P2.rangeEnd(d - 1), key) < 0);
  }

  @Test
  void valuesHoldTheProjectionsOtherColumns() {
    TaxiTrips trips = new TaxiTrips(42, W);
    assertEquals(28 * 8, Projection.P1.value(trips, 5).length);
    assertEquals(3 * 8, Projection.P2.value(trips, 5).length);
    assertEquals(4 * 8, Projection.P3.value(trips, 5).length);
    assertEquals(16, Projection.P2.key(trips, 5).length);
    assertEquals(8, Projection.P1.key(trips, 5).length);
    assertThrows(IllegalArgumentException.class, () -> new TaxiTrips(1, 0));
  }

  private static long[] shuffle(long[] values, SplittableRandom random) {
    long[] out = values.clone();
    for (int i = out.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      long t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}
