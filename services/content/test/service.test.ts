import { describeServiceBasics } from '@uis/kit/testing';
import { contentService } from '../src';

describeServiceBasics(contentService);
