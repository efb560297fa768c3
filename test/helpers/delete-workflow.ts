/** As retention does: a workflow execution deleted, waited for until Temporal no longer knows it. */
import type { Client } from '@temporalio/client';
import { pollUntil } from '../../src/util/poll';

/** The server deletes in a task of its own: about 20 s on the dev server, longer on a loaded machine. */
export async function deleteWorkflow(client: Client, workflowId: string): Promise<void> {
  await client.workflowService.deleteWorkflowExecution({
    namespace: client.options.namespace,
    workflowExecution: { workflowId },
  });
  await pollUntil(
    async () => {
      try {
        await client.workflow.getHandle(workflowId).describe();
        return undefined;
      } catch (error) {
        if (error instanceof Error && error.name === 'WorkflowNotFoundError') return true;
        throw error;
      }
    },
    { timeoutMs: 90_000, intervalMs: 200, description: `the workflow ${workflowId} deleted` },
  );
}
