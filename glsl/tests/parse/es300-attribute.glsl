#version 300 es
attribute vec4 pos;
