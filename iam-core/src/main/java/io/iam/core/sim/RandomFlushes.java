package io.iam.core.sim;

import io.iam.core.option.OptionType;
import java.util.SplittableRandom;

/** Flush lengths drawn uniformly at random from [min, max], from a seeded generator. */
public final class RandomFlushes implements FlushStream {

  private final long min;
  private final long max;
  private final long seed;
  private final SplittableRandom random;

  public RandomFlushes(long min, long max, long seed) {
    if (min <= 0 || max < min) {
      throw new IllegalArgumentException("need 0 < min <= max: [" + min + ", " + max + "]");
    }
    this.min = min;
    this.max = max;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long nextLength() {
    return min == max ? min : random.nextLong(min, max + 1);
  }

  @Override
  public String describe() {
    return "random " + OptionType.SIZE.format(min) + ".." + OptionType.SIZE.format(max) + " seed " + seed;
  }
}
