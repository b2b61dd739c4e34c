package io.iam.bench.util;

import java.util.Locale;

/** Byte counts for people: {@code 512 B}, {@code 4.00 MiB}, {@code 93.75 GiB}. */
public final class Sizes {

  private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private Sizes() {}

  public static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    double v = bytes;
    int unit = -1;
    while (v >= 1024 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.2f %s", v, UNITS[unit]);
  }
}
