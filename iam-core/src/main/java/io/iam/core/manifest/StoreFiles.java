package io.iam.core.manifest;

import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The names of a store's files: one place, so recovery and cleanup agree on them. */
public final class StoreFiles {

  public static final String CURRENT = "CURRENT";
  public static final String LOCK = "LOCK";

  private static final Pattern TABLE = Pattern.compile("(\\d{6,})\\.mst");
  private static final Pattern LOG = Pattern.compile("(\\d{6,})\\.log");
  private static final Pattern MANIFEST = Pattern.compile("MANIFEST-(\\d{6,})");

  private StoreFiles() {}

  public static Path table(Path dir, long number) {
    return dir.resolve(padded(number) + ".mst");
  }

  public static Path log(Path dir, long number) {
    return dir.resolve(padded(number) + ".log");
  }

  public static Path manifest(Path dir, long number) {
    return dir.resolve("MANIFEST-" + padded(number));
  }

  /** {@code number} in decimal, zero-padded to six digits (as {@code %06d}, without a formatter). */
  static String padded(long number) {
    if (number < 0) {
      throw new IllegalArgumentException("file number " + number + " is negative");
    }
    String digits = Long.toString(number);
    return digits.length() >= 6 ? digits : "000000".substring(digits.length()) + digits;
  }

  public static OptionalLong tableNumber(Path p) {
    return number(TABLE, p);
  }

  public static OptionalLong logNumber(Path p) {
    return number(LOG, p);
  }

  public static OptionalLong manifestNumber(Path p) {
    return number(MANIFEST, p);
  }

  private static OptionalLong number(Pattern pattern, Path p) {
    Matcher m = pattern.matcher(p.getFileName().toString());
    return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }
}
