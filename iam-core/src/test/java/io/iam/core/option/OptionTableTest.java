package io.iam.core.option;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.ExploringPolicy;
import io.iam.core.policy.MergePolicies;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OptionTableTest {

  @Test
  void sizesReadCommonFormsAndRoundTrip() {
    assertEquals(4L << 20, OptionType.SIZE.parse("4MiB"));
    assertEquals(4L << 20, OptionType.SIZE.parse("4M"));
    assertEquals(4L << 20, OptionType.SIZE.parse("4 mb"));
    assertEquals(4096L, OptionType.SIZE.parse("4096"));
    assertEquals(1L << 40, OptionType.SIZE.parse("1TiB"));
    assertEquals("4MiB", OptionType.SIZE.format(4L << 20));
    assertEquals("1536KiB", OptionType.SIZE.format(1536L << 10));
    assertEquals("1000", OptionType.SIZE.format(1000L));
    for (String bad : List.of("", "-1", "4QB", "1.5MiB", "99999999999999999999")) {
      assertThrows(IllegalArgumentException.class, () -> OptionType.SIZE.parse(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> OptionType.SIZE.parse("16777216TiB"));
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      long v = random.nextLong(0, Long.MAX_VALUE) >>> random.nextInt(0, 63);
      assertEquals(v, OptionType.SIZE.parse(OptionType.SIZE.format(v)));
    }
  }

  @Test
  void everyPolicyTableRoundTripsRandomValidValues() {
    SplittableRandom random = new SplittableRandom(2);
    int checked = 0;
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      OptionTable table = d.options();
      assertEquals(table.defaults(), table.parse(table.defaults().asStrings()));
      for (int i = 0; i < 200; i++) {
        Map<String, String> given = new HashMap<>();
        for (Option<?> o : table.options()) {
          given.put(o.key(), randomValue(o, random));
        }
        OptionValues values;
        try {
          values = table.parse(given);
        } catch (InvalidOptionsException e) {
          continue; // a rule between fields refused this combination
        }
        assertEquals(values, table.parse(values.asStrings()), d.name() + " " + given);
        assertEquals(values.asStrings(), table.parse(values.asStrings()).asStrings());
        checked++;
      }
    }
    assertTrue(checked > 700, "too few round trips: " + checked);
  }

  private static String randomValue(Option<?> o, SplittableRandom random) {
    if (o.type() == OptionType.INT) {
      return Integer.toString(random.nextInt((Integer) o.min(), (Integer) o.max() + 1));
    } else if (o.type() == OptionType.SIZE) {
      return OptionType.SIZE.format(random.nextLong((Long) o.min(), (Long) o.max() + 1));
    } else {
      return Double.toString((Double) o.min() + random.nextDouble() * ((Double) o.max() - (Double) o.min()));
    }
  }

  @Test
  void everyProblemIsReportedAtOnceNamingKeyValueAndRange() {
    OptionTable table = MergePolicies.descriptor("exploring").options();
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> table.parse(Map.of("max-components", "0", "ratio", "x", "colour", "red")));
    assertEquals(3, e.problems().size(), e.problems().toString());
    String all = String.join("\n", e.problems());
    assertTrue(all.contains("unknown option 'colour'"), all);
    assertTrue(all.contains("max-components=0 is out of range: allowed 1 to 64"), all);
    assertTrue(all.contains("ratio='x' is not valid"), all);
  }

  @Test
  void rulesBetweenFieldsNameOptionsAsTheUserWroteThem() {
    OptionTable table = MergePolicies.descriptor("exploring").options();
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> table.parse(Map.of("min-merge", "5", "max-merge", "3"), key -> "iam.compaction." + key));
    assertEquals(List.of("iam.compaction.min-merge=5 exceeds iam.compaction.max-merge=3: allowed"
        + " iam.compaction.min-merge <= iam.compaction.max-merge"), e.problems());
    // Parsed without host names, the same values name plain keys; the names are not part of equality.
    OptionValues host = table.parse(Map.of("min-merge", "3"), key -> "iam.compaction." + key);
    assertEquals("iam.compaction.min-merge", host.nameOf(ExploringPolicy.MIN_MERGE));
    assertEquals(table.parse(Map.of("min-merge", "3")), host);
  }

  @Test
  void declarationsAreChecked() {
    assertThrows(IllegalArgumentException.class,
        () -> Option.builder("k", OptionType.INT).defaultValue(0).bounds(1, 5).doc("d").build());
    assertThrows(IllegalArgumentException.class,
        () -> Option.builder("Bad_Key", OptionType.INT).defaultValue(1).bounds(1, 5).doc("d").build());
    Option<Integer> a = Option.builder("a", OptionType.INT).defaultValue(1).bounds(1, 5).doc("d").build();
    assertThrows(IllegalArgumentException.class, () -> OptionTable.of("t", List.of(a, a)));
  }

  @Test
  void markdownDocumentsEveryOption() {
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      String md = d.options().toMarkdown("iam.compaction.");
      for (Option<?> o : d.options().options()) {
        assertTrue(md.contains("`iam.compaction." + o.key() + "`"), d.name() + " lacks " + o.key());
        assertTrue(md.contains(o.doc()), d.name() + " lacks the doc of " + o.key());
      }
    }
  }
}
