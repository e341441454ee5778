#version 100 es
