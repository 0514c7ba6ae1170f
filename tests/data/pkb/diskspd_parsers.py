# Copyright 2018 PerfKitBenchmarker Authors. All rights reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Extracted for iomark's tests (tests/data/SOURCES.md): the XML parsing functions
# of perfkitbenchmarker/windows_packages/diskspd.py, unchanged (lines 552-794 at
# commit 946ea317692cac6c78e4aec1cd041b538f1a0285), with the four names they use
# from the rest of PKB replaced by the stand-ins below (PKB's own
# LATENCY_PERCENTILES and SampleData lines 38-39; sample.Sample and
# errors.Benchmarks.RunError reduced to plain classes).
import collections
import re
import xml.etree.ElementTree

LATENCY_PERCENTILES = [50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 99.99999]
SampleData = collections.namedtuple('SampleData', ['metric', 'value', 'unit'])


class sample:  # pylint: disable=invalid-name
  Sample = collections.namedtuple('Sample', ['metric', 'value', 'unit', 'metadata'])


class errors:  # pylint: disable=invalid-name
  class Benchmarks:
    class RunError(Exception):
      pass


def ParseDiskSpdResults(result_xml, metadata):
  """Parses the xml output from DiskSpd and returns a list of samples.

  each list of sample only have one sample with read speed as value
  all the other information is stored in the meta data

  Args:
    result_xml: diskspd output
    metadata: the running info of vm

  Returns:
    list of samples from the results of the diskspd tests.
  """
  xml_root = xml.etree.ElementTree.fromstring(result_xml)
  metadata = metadata.copy()
  sample_data = []
  samples = []
  # Get the parameters from the sender XML output. Add all the
  # information of diskspd result to metadata
  for item in list(xml_root):
    if item.tag == 'TimeSpan':
      for subitem in list(item):
        if subitem.tag == 'Thread':
          target_item = subitem.find('Target')
          for read_write_info in list(target_item):
            if read_write_info.tag not in [
                'Path',
                'FileSize',
            ] and 'latency' not in read_write_info.tag.lower():
              # parsing latency metrics from the latency section
              if read_write_info.tag not in metadata:
                metadata[read_write_info.tag] = 0
              try:
                metadata[read_write_info.tag] += int(read_write_info.text)
              except ValueError:
                metadata[read_write_info.tag] += float(read_write_info.text)
        elif subitem.tag == 'CpuUtilization':
          samples.append(ParseCpuUtilizationAsSample(subitem, metadata.copy()))
        elif subitem.tag == 'Latency':
          for latency_info in list(subitem):
            if latency_info.tag.lower() == 'bucket':
              sample_data.extend(ParseLatencyBucket(latency_info))
            else:
              sample_data.append(
                  SampleData(
                      FormatLatencyMetricName(latency_info.tag),
                      latency_info.text,
                      'ms' if 'Milliseconds' in latency_info.tag else '',
                  )
              )
        else:
          metadata[subitem.tag] = subitem.text
    if item.tag == 'Profile':
      for subitem in list(item):
        if subitem.tag == 'TimeSpans':
          timespan_info = subitem.find('TimeSpan')
          for timespan_item in list(timespan_info):
            if timespan_item.tag == 'Targets':
              target_info = timespan_item.find('Target')
              for target_item in list(target_info):
                if target_item.tag == 'WriteBufferContent':
                  pattern_item = target_item.find('Pattern')
                  metadata[pattern_item.tag] = pattern_item.text
                else:
                  metadata[target_item.tag] = target_item.text
            else:
              metadata[timespan_item.tag] = timespan_item.text

  read_bytes = int(metadata['ReadBytes'])
  write_bytes = int(metadata['WriteBytes'])
  read_count = int(metadata['ReadCount'])
  write_count = int(metadata['WriteCount'])
  total_byte = int(metadata['BytesCount'])
  total_count = int(metadata['IOCount'])
  testtime = float(metadata['TestTimeSeconds'])

  # calculate the read and write speed (Byte -> MB)
  read_bandwidth = ConvertTotalBytesToMBPerSecond(read_bytes, testtime)
  write_bandwidth = ConvertTotalBytesToMBPerSecond(write_bytes, testtime)
  total_bandwidth = ConvertTotalBytesToMBPerSecond(total_byte, testtime)

  # calculate the read write times per second
  read_iops = int(read_count / testtime)
  write_iops = int(write_count / testtime)
  total_iops = int(total_count / testtime)
  samples.extend([
      sample.Sample('total_bandwidth', total_bandwidth, 'MB/s', metadata),
      sample.Sample('total_iops', total_iops, '', metadata),
  ])
  if read_bandwidth != 0:
    samples.extend([
        sample.Sample('read_bandwidth', read_bandwidth, 'MB/s', metadata),
        sample.Sample('read_iops', read_iops, '', metadata),
    ])
  if write_bandwidth != 0:
    samples.extend([
        sample.Sample('write_bandwidth', write_bandwidth, 'MB/s', metadata),
        sample.Sample('write_iops', write_iops, '', metadata),
    ])
  samples.extend([
      sample.Sample(item.metric, item.value, item.unit, metadata)
      for item in sample_data
  ])
  return samples


def ConvertTotalBytesToMBPerSecond(
    bytes_value: int, test_duration: float
) -> float:
  """Converts total bytes to MB per second."""
  return bytes_value / test_duration / 1024 / 1024


def ParseLatencyBucket(latency_bucket):
  """Parse latency percentile data from bucket xml tag."""
  percentile = latency_bucket.find('Percentile')
  read_milliseconds = latency_bucket.find('ReadMilliseconds')
  write_milliseconds = latency_bucket.find('WriteMilliseconds')
  total_milliseconds = latency_bucket.find('TotalMilliseconds')
  if (
      percentile is None
      or total_milliseconds is None
  ):
    raise errors.Benchmarks.RunError(
        'Missing values in latency bucket info in diskspd xml output, please'
        f' check {xml.etree.ElementTree.tostring(latency_bucket)}'
    )
  percentile = float(percentile.text)
  if percentile not in LATENCY_PERCENTILES:
    return []
  sample_data = [
      SampleData(
          f'total_latency_p{percentile}', float(total_milliseconds.text), 'ms'
      )
  ]
  if read_milliseconds is not None:
    sample_data.append(
        SampleData(
            f'read_latency_p{percentile}', float(read_milliseconds.text), 'ms'
        )
    )
  if write_milliseconds is not None:
    sample_data.append(
        SampleData(
            f'write_latency_p{percentile}', float(write_milliseconds.text), 'ms'
        )
    )
  return sample_data


def ParseCpuUtilizationAsSample(xml_root, metadata):
  """Parse CPU Utilization from cpu xml tag."""
  per_cpu_usage = {}
  average_cpu_usage = {}
# Sample CPU tag:
# <CPU>
#         <Socket>0</Socket>
#         <Node>0</Node>
#         <Group>0</Group>
#         <Core>0</Core>
#         <EfficiencyClass>0</EfficiencyClass>
#         <Id>0</Id>
#         <UsagePercent>27.89</UsagePercent>
#         <UserPercent>2.68</UserPercent>
#         <KernelPercent>25.21</KernelPercent>
#         <IdlePercent>72.11</IdlePercent>
# </CPU>
# <CPU>
#         <Socket>0</Socket>
#         <Node>0</Node>
#         <Group>0</Group>
#         <Core>0</Core>
#         <EfficiencyClass>0</EfficiencyClass>
#         <Id>1</Id>
#         <UsagePercent>98.38</UsagePercent>
#         <UserPercent>0.47</UserPercent>
#         <KernelPercent>97.91</KernelPercent>
#         <IdlePercent>1.62</IdlePercent>
# </CPU>
  for item in list(xml_root):
    if item.tag == 'CPU':
      # this tag shows per cpu core usage
      cpu_socket = item.find('Socket')
      cpu_node = item.find('Node')
      cpu_group = item.find('Group')
      cpu_core = item.find('Core')
      cpu_id = item.find('Id')
      cpu_key_parts = []
      if cpu_socket is not None:
        cpu_key_parts.append(cpu_socket.text)
      if cpu_node is not None:
        cpu_key_parts.append(cpu_node.text)
      if cpu_group is not None:
        cpu_key_parts.append(cpu_group.text)
      if cpu_core is not None:
        cpu_key_parts.append(cpu_core.text)
      if cpu_id is not None:
        cpu_key_parts.append(cpu_id.text)
      cpu_key = '_'.join(cpu_key_parts)
      cpu_usage = ParseCpuUsageTags(item)
      per_cpu_usage[f'usage_cpu_{cpu_key}'] = cpu_usage
    elif item.tag == 'Average':
      average_cpu_usage = ParseCpuUsageTags(item)
  metadata['per_cpu_usage'] = per_cpu_usage
  metadata['average_cpu_usage'] = average_cpu_usage
  return sample.Sample(
      'cpu_total_utilization',
      average_cpu_usage['cpu_total_utilization'],
      '',
      metadata,
  )


def ParseCpuUsageTags(cpu_tag):
  """Parse CPU Utilization from cpu xml tag."""
  usage_percent = cpu_tag.find('UsagePercent')
  user_percent = cpu_tag.find('UserPercent')
  kernel_percent = cpu_tag.find('KernelPercent')
  idle_percent = cpu_tag.find('IdlePercent')
  if (
      usage_percent is None
      or user_percent is None
      or kernel_percent is None
      or idle_percent is None
  ):
    raise errors.Benchmarks.RunError(
        'Cpu utilization info missing in diskspd xml output'
    )
  return {
      'cpu_total_utilization': float(usage_percent.text),
      'cpu_user_percent': float(user_percent.text),
      'cpu_kernel_percent': float(kernel_percent.text),
      'cpu_idle_percent': float(idle_percent.text),
  }


def FormatLatencyMetricName(text):
  text = text.replace('Milliseconds', '')
  # Convert camel case to snake case for latency metric name.
  text = re.sub(r'(?<!^)(?=[A-Z])', '_', text).lower()
  if 'latency' not in text:
    return text + '_latency'
  return text
