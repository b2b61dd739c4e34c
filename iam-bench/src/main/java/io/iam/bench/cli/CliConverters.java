package io.iam.bench.cli;

import io.iam.bench.util.SizeConverter;
import io.iam.core.option.OptionType;
import io.iam.core.policy.MergePolicies;
import io.iam.core.sim.Accounting;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for the option types the simulator takes (byte sizes: {@link SizeConverter}). */
final class CliConverters {

  private CliConverters() {}

  /** Two sizes {@code MIN:MAX}. */
  static final class Range implements ITypeConverter<SizeRange> {
    @Override
    public SizeRange convert(String value) {
      int colon = value.indexOf(':');
      if (colon < 0) {
        throw new TypeConversionException("'" + value + "' is not MIN:MAX, e.g. 1MiB:8MiB");
      }
      return new SizeRange(
          SizeConverter.parse(value.substring(0, colon)), SizeConverter.parse(value.substring(colon + 1)));
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

  /** An inclusive range of byte sizes. */
  record SizeRange(long min, long max) {
    @Override
    public String toString() {
      return OptionType.SIZE.format(min) + ":" + OptionType.SIZE.format(max);
    }
  }
}
