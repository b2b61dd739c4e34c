package io.iam.asterix.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.asterix.app.IamCCApplication;
import io.iam.asterix.app.IamNCApplication;
import io.iam.asterix.config.AsterixParameters;
import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/asterixdb.md shows each policy's parameters between {@code <!-- asterix-parameters:NAME -->}
 * and {@code <!-- /asterix-parameters -->}. This test fails when a block differs from what the
 * option tables declare, when a policy of {@link AsterixPolicies} has no block, or when the
 * application classes the page tells operators to configure are renamed. {@code
 * -Diam.golden.rewrite=true} regenerates the blocks (a new policy still needs its block added by
 * hand, with its prose).
 */
class AsterixDocsTest {

  private static final Pattern BLOCK = Pattern.compile(
      "<!-- asterix-parameters:([a-z-]+) -->\\n(.*?)<!-- /asterix-parameters -->", Pattern.DOTALL);

  private static String table(String policy) {
    IamMergePolicyFactory f = AsterixPolicies.byName(policy)
        .orElseThrow(() -> new AssertionError("asterixdb.md documents unknown policy " + policy));
    return AsterixParameters.toMarkdown(f.descriptor());
  }

  @Test
  void everyPolicysParametersAreDocumentedAsDeclared() throws IOException {
    Path doc = Path.of(System.getProperty("iam.docs.dir", "../docs")).resolve("asterixdb.md");
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("iam.golden.rewrite")) {
      text = BLOCK.matcher(text).replaceAll(m -> Matcher.quoteReplacement("<!-- asterix-parameters:"
          + m.group(1) + " -->\n" + table(m.group(1)) + "<!-- /asterix-parameters -->"));
      Files.writeString(doc, text, StandardCharsets.UTF_8);
    }
    Set<String> documented = new LinkedHashSet<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      assertEquals(table(m.group(1)), m.group(2), "asterixdb.md: parameters of " + m.group(1));
      documented.add(m.group(1));
    }
    assertEquals(AsterixPolicies.all().stream().map(IamMergePolicyFactory::getName)
        .collect(Collectors.toSet()), documented, "every policy is documented");
    assertTrue(text.contains("app.class=" + IamNCApplication.class.getName()));
    assertTrue(text.contains("app.class=" + IamCCApplication.class.getName()));
  }
}
