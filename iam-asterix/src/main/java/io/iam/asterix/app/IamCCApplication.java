package io.iam.asterix.app;

import java.util.ArrayList;
import java.util.List;
import org.apache.asterix.common.config.AsterixExtension;
import org.apache.asterix.hyracks.bootstrap.CCApplication;

/**
 * AsterixDB's cluster-controller application with IAM's compile-time check of merge-policy
 * parameters. Set it as {@code app.class} in the {@code [cc]} section of the cluster
 * configuration. It adds {@link MergePolicyCheck} as the statement-executor extension; everything
 * else is AsterixDB's own {@link CCApplication}.
 *
 * <p>Without it our policies still work, and AsterixDB still checks parameter names; a value out
 * of range is then only refused when an NC builds the index (see docs/asterixdb.md).
 */
public class IamCCApplication extends CCApplication {

  @Override
  protected List<AsterixExtension> getExtensions() throws Exception {
    List<AsterixExtension> extensions = new ArrayList<>(super.getExtensions());
    extensions.add(new AsterixExtension(MergePolicyCheck.class.getName()));
    return extensions;
  }
}
