import { Module } from '@nestjs/common';
import { ControllerMetrics } from './controller-metrics';

/** The controllers' metrics, shared by the manager and each controller's module. */
@Module({ providers: [ControllerMetrics], exports: [ControllerMetrics] })
export class ControllerMetricsModule {}
