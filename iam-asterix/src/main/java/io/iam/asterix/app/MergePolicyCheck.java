package io.iam.asterix.app;

import io.iam.asterix.config.AsterixParameters;
import io.iam.asterix.policy.AsterixPolicies;
import io.iam.asterix.policy.IamMergePolicyFactory;
import io.iam.core.option.InvalidOptionsException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.apache.asterix.app.cc.IStatementExecutorExtension;
import org.apache.asterix.app.translator.DefaultStatementExecutorFactory;
import org.apache.asterix.app.translator.QueryTranslator;
import org.apache.asterix.common.api.IResponsePrinter;
import org.apache.asterix.common.context.IStorageComponentProvider;
import org.apache.asterix.common.dataflow.ICcApplicationContext;
import org.apache.asterix.common.exceptions.CompilationException;
import org.apache.asterix.common.exceptions.ErrorCode;
import org.apache.asterix.compiler.provider.ILangCompilationProvider;
import org.apache.asterix.lang.common.base.Statement;
import org.apache.asterix.lang.common.statement.DatasetDecl;
import org.apache.asterix.metadata.declared.MetadataProvider;
import org.apache.asterix.translator.IRequestParameters;
import org.apache.asterix.translator.IStatementExecutor;
import org.apache.asterix.translator.IStatementExecutorFactory;
import org.apache.asterix.translator.SessionOutput;
import org.apache.hyracks.api.client.IHyracksClientConnection;

/**
 * Refuses {@code CREATE DATASET} with an IAM merge policy whose parameter values are not valid,
 * with AsterixDB's own compile error, before anything is written.
 *
 * <p>AsterixDB 0.9.8 checks only parameter <em>names</em> at compile time
 * ({@code QueryTranslator.validateCompactionPolicy} against the factory's {@code
 * getPropertiesNames()}); values reach a factory only on an NC, when the index is built. This
 * statement-executor extension runs AsterixDB's {@link QueryTranslator} unchanged except that a
 * {@code CREATE DATASET} naming one of our policies first has its parameters parsed by the policy's
 * option table ({@link AsterixParameters#parse}); every problem becomes one {@code ASX1079
 * Compilation error} naming the parameters as the user wrote them. {@link IamCCApplication}
 * installs it.
 */
public final class MergePolicyCheck extends FixedExtension implements IStatementExecutorExtension {

  public MergePolicyCheck() {
    super("iam-merge-policy-check");
  }

  @Override
  public IStatementExecutorFactory getQueryTranslatorFactory() {
    return new Factory();
  }

  @Override
  public IStatementExecutorFactory getStatementExecutorFactory(ExecutorService executor) {
    return new Factory(executor);
  }

  /**
   * The problem with {@code policyName}'s {@code parameters}, as one message, or empty when they
   * are valid or the policy is not ours (AsterixDB checks its own).
   */
  public static Optional<String> problem(String policyName, Map<String, String> parameters) {
    Optional<IamMergePolicyFactory> factory = AsterixPolicies.byName(policyName);
    if (factory.isEmpty()) {
      return Optional.empty();
    }
    try {
      AsterixParameters.parse(factory.get().descriptor(), policyName,
          parameters == null ? Map.of() : parameters);
      return Optional.empty();
    } catch (InvalidOptionsException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static final class Factory extends DefaultStatementExecutorFactory {
    /** With AsterixDB's default executor. */
    Factory() {
      super();
    }

    Factory(ExecutorService executor) {
      super(executor);
    }

    @Override
    public IStatementExecutor create(ICcApplicationContext appCtx, List<Statement> statements,
        SessionOutput output, ILangCompilationProvider compilationProvider,
        IStorageComponentProvider storageComponentProvider, IResponsePrinter responsePrinter) {
      return new Translator(appCtx, statements, output, compilationProvider, executorService,
          responsePrinter);
    }
  }

  private static final class Translator extends QueryTranslator {
    Translator(ICcApplicationContext appCtx, List<Statement> statements, SessionOutput output,
        ILangCompilationProvider compilationProvider, ExecutorService executorService,
        IResponsePrinter responsePrinter) {
      super(appCtx, statements, output, compilationProvider, executorService, responsePrinter);
    }

    @Override
    public void handleCreateDatasetStatement(MetadataProvider metadataProvider, Statement stmt,
        IHyracksClientConnection hcc, IRequestParameters requestParameters) throws Exception {
      DatasetDecl dd = (DatasetDecl) stmt;
      Optional<String> problem =
          problem(dd.getCompactionPolicy(), dd.getCompactionPolicyProperties());
      if (problem.isPresent()) {
        throw new CompilationException(ErrorCode.COMPILATION_ERROR, stmt.getSourceLocation(),
            problem.get());
      }
      super.handleCreateDatasetStatement(metadataProvider, stmt, hcc, requestParameters);
    }
  }
}
