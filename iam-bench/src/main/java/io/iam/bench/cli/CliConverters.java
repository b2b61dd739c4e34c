package io.iam.bench.cli;

import io.iam.core.option.OptionType;
import io.iam.core.policy.MergePolicies;
import io.iam.core.sim.Accounting;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for the option types the simulator takes. */
final class CliConverters {

  private CliConverters() {}

  /** A byte size as {@link OptionType#SIZE} reads it: {@code 4096}, {@code 64KiB}, {@code 4MiB}. */
  static final class Size implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return parseSize(value);
    }
  }

  /** Two sizes {@code MIN:MAX}. */
  static final class Range implements ITypeConverter<SizeRange> {
    @Override
    public SizeRange convert(String value) {
      int colon = value.indexOf(':');
      if (colon < 0) {
        throw new TypeConversionException("'" + value + "' is not MIN:MAX, e.g. 1MiB:8MiB");
      }
      return new SizeRange(parseSize(value.substring(0, colon)), parseSize(value.substring(colon + 1)));
    }
  }

  /** {@code model} or {@code flush-then-merge}. */
  static final class AccountingName implements ITypeConverter<Accounting> {
    @Override
    public Accounting convert(String value) {
      for (Accounting a : Accounting.values()) {
        if (name(a).equals(value.trim().toLowerCase(Locale.ROOT).replace('_', '-'))) {
          return a;
        }
      }
      throw new TypeConversionException("'" + value + "' is not one of: model, flush-then-merge");
    }
  }

  /** The accounting names, for {@code ${COMPLETION-CANDIDATES}}. */
  static final class AccountingNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of(Accounting.values()).stream().map(CliConverters::name).iterator();
    }
  }

  /** The registered policy names, for {@code ${COMPLETION-CANDIDATES}}. */
  static final class PolicyNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return MergePolicies.names().iterator();
    }
  }

  /** How the command line writes an accounting mode. */
  static String name(Accounting accounting) {
    return accounting.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static long parseSize(String text) {
    try {
      return OptionType.SIZE.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("'" + text + "': " + e.getMessage());
    }
  }

  /** An inclusive range of byte sizes. */
  record SizeRange(long min, long max) {
    @Override
    public String toString() {
      return OptionType.SIZE.format(min) + ":" + OptionType.SIZE.format(max);
    }
  }
}
