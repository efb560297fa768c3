// Tests print only the SDK's errors (expected activity failures are warnings); worker state changes would drown the report.
import { installSdkLogging } from '../../src/temporal/sdk-logging';
import { createLogger } from '../../src/logging/logger';

installSdkLogging(createLogger({ source: 'temporal-sdk' }, 'error'), 'ERROR');
