import { describeServiceBasics } from '@uis/kit/testing';
import { realtimeService } from '../src';

describeServiceBasics(realtimeService);
