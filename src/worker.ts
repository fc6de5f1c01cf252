import './contract/zod-setup';
import { expose } from 'comlink';
import { createEngine } from './engine/engine';

expose(createEngine());
