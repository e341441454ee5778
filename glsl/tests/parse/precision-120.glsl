#version 120
precision highp float;
