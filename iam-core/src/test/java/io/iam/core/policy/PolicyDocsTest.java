package io.iam.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/policies.md shows each policy's options table between {@code <!-- options:NAME -->} and
 * {@code <!-- /options -->}. This test fails when a table there differs from the one the code
 * declares; {@code -Diam.golden.rewrite=true} regenerates them.
 */
class PolicyDocsTest {

  private static final Pattern BLOCK =
      Pattern.compile("<!-- options:([a-z-]+) -->\\n(.*?)<!-- /options -->", Pattern.DOTALL);

  @Test
  void everyPolicyDocumentsExactlyItsDeclaredOptions() throws IOException {
    Path doc = Paths.get(System.getProperty("iam.docs.dir", "../docs"), "policies.md");
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("iam.golden.rewrite")) {
      Matcher m = BLOCK.matcher(text);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String table = MergePolicies.descriptor(m.group(1)).options().toMarkdown("");
        m.appendReplacement(out, Matcher.quoteReplacement("<!-- options:" + m.group(1) + " -->\n" + table + "<!-- /options -->"));
      }
      m.appendTail(out);
      text = out.toString();
      Files.writeString(doc, text, StandardCharsets.UTF_8);
    }
    for (MergePolicies.Descriptor d : MergePolicies.all()) {
      Matcher m = BLOCK.matcher(text);
      boolean found = false;
      while (m.find()) {
        if (m.group(1).equals(d.name())) {
          assertEquals(d.options().toMarkdown(""), m.group(2), doc + ": options of " + d.name());
          found = true;
        }
      }
      assertTrue(found, doc + " has no options table for " + d.name());
    }
  }
}
