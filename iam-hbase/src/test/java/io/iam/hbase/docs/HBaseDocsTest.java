package io.iam.hbase.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.policy.MergePolicies;
import io.iam.hbase.config.CompactionSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/hbase.md shows each policy's HBase properties between {@code <!-- hbase-options:NAME -->}
 * and {@code <!-- /hbase-options -->}. This test fails when a block differs from the option table
 * the code declares, or a policy is missing; {@code -Diam.golden.rewrite=true} regenerates them.
 */
class HBaseDocsTest {

  private static final Pattern BLOCK =
      Pattern.compile("<!-- hbase-options:([a-z-]+) -->\\n(.*?)<!-- /hbase-options -->", Pattern.DOTALL);

  private static String table(String policy) {
    return MergePolicies.descriptor(policy).options().toMarkdown(CompactionSettings.PREFIX);
  }

  @Test
  void everyPolicysPropertiesAreDocumentedAsDeclared() throws IOException {
    Path doc = Paths.get(System.getProperty("iam.docs.dir", "../docs")).resolve("hbase.md");
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("iam.golden.rewrite")) {
      Matcher m = BLOCK.matcher(text);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        m.appendReplacement(out, Matcher.quoteReplacement(
            "<!-- hbase-options:" + m.group(1) + " -->\n" + table(m.group(1)) + "<!-- /hbase-options -->"));
      }
      m.appendTail(out);
      text = out.toString();
      Files.writeString(doc, text, StandardCharsets.UTF_8);
    }
    Set<String> documented = new LinkedHashSet<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      assertEquals(table(m.group(1)), m.group(2), "hbase.md: properties of " + m.group(1));
      documented.add(m.group(1));
    }
    assertEquals(Set.copyOf(MergePolicies.names()), documented, "every policy is documented");
    assertTrue(text.contains(CompactionSettings.POLICY_KEY));
  }
}
